import DSP
import MIDI
import Sampler
import SamplerLevels

/// Rendering helpers for the sampler tests: run an instrument for a number of frames, applying
/// MIDI messages at exact frames the way the engine does (by splitting blocks at event offsets).
struct Rendered {
    var left: [Float]
    var right: [Float]
}

let testSampleRate = 48_000.0

/// `count` values of a linear congruential generator from `seed`: deterministic noise for waveforms.
func congruentialNoise(count: Int, seed: UInt32) -> [Int32] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Int32(bitPattern: state)
    }
}

/// A timed message for `render`.
struct At {
    var frame: Int
    var message: MIDIMessage
    init(_ frame: Int, _ message: MIDIMessage) {
        self.frame = frame
        self.message = message
    }
}

func noteOn(_ key: Int, _ velocity: Int = 127) -> MIDIMessage {
    .noteOn(channel: 0, note: UInt8(key), velocity: UInt8(velocity))
}

func noteOff(_ key: Int) -> MIDIMessage { .noteOff(channel: 0, note: UInt8(key), velocity: 64) }

func controlChange(_ controller: UInt8, _ value: Int) -> MIDIMessage {
    .controlChange(channel: 0, controller: controller, value: UInt8(value))
}

/// Renders `frames` frames in blocks of `blockSize`, splitting blocks at event frames.
func render(_ instrument: SamplerInstrument, frames: Int, blockSize: Int = 256, events: [At] = []) -> Rendered {
    let buffer = StereoBuffer(capacity: blockSize)
    var out = Rendered(left: [], right: [])
    out.left.reserveCapacity(frames)
    out.right.reserveCapacity(frames)
    let sorted = events.sorted { $0.frame < $1.frame }
    var next = 0
    var position = 0
    while position < frames {
        while next < sorted.count && sorted[next].frame <= position {
            instrument.handle(sorted[next].message)
            next += 1
        }
        var count = min(blockSize, frames - position)
        if next < sorted.count { count = min(count, sorted[next].frame - position) }
        let block = buffer.block(frames: count)
        block.clear()
        instrument.render(into: block)
        out.left.append(contentsOf: UnsafeBufferPointer(start: block.left, count: count))
        out.right.append(contentsOf: UnsafeBufferPointer(start: block.right, count: count))
        position += count
    }
    return out
}

/// A looped constant-1 waveform: the output is exactly the voice's gain × envelope.
func constantWaveform(frames: Int = 4096, sampleRate: Double = testSampleRate) throws -> SamplerWaveform {
    try SamplerWaveform(
        channels: [[Float](repeating: 1, count: frames)], sampleRate: sampleRate,
        naturalLoop: SamplerLoop(startFrame: 0, endFrame: frames))
}

/// A layer with a fast, exact envelope (sustain 1) and the given release.
func plainLayer(attackSeconds: Double = 0, releaseSeconds: Double = 0.05) -> SamplerLayer {
    var layer = SamplerLayer()
    layer.ampEnvelope = EnvelopeSettings(
        attackSeconds: attackSeconds, holdSeconds: 0, decaySeconds: 0, sustainLevel: 1, releaseSeconds: releaseSeconds)
    return layer
}

/// An instrument with `program` already submitted (adopted at the first note or block), its
/// band-limited levels built first as a loader's `.atLoad` builds them (`.byNeed`: left to the test).
/// CC7 at full on every part (General MIDI starts it at 100, −4.2 dB), so a test measures the
/// program's own gain.
func instrument(
    playing program: SamplerProgram, maxVoices: Int = 64, quality: InterpolationQuality = .realtime,
    levels: SamplerProgram.LevelBuilding = .atLoad
) -> SamplerInstrument {
    if levels == .atLoad { program.buildAllLevels() }
    let instrument = SamplerInstrument(sampleRate: testSampleRate, maxFrames: 512, maxVoices: maxVoices)
    instrument.quality = quality
    instrument.submit(program)
    for channel in UInt8(0)..<16 { instrument.handle(.controlChange(channel: channel, controller: MIDIController.volume, value: 127)) }
    return instrument
}

/// Equal-power centre pan gain per channel.
let centrePanGain = Float(0.5.squareRoot())

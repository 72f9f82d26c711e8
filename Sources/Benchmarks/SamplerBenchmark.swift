import DSP
import MIDI
import Sampler
import SamplerLevels

#if canImport(Glibc)
import Glibc
#endif

/// Measures the sampler's render cost: `voices` sustained, looping voices transposed between −12
/// and +12 semitones (16 distinct 1-second harmonic waveforms, so voices read different memory),
/// rendered in 256-frame blocks. Control thread; allocates the program before timing starts.
public enum SamplerBenchmark {
    /// Returns the time per voice and output frame, and how many times faster than real time
    /// the whole render ran. `voices` is clamped to 0…`SamplerInstrument.hardMaxVoices`.
    public static func run(
        voices: Int, seconds: Double, sampleRate: Double, quality: InterpolationQuality = .realtime
    ) -> (nanosecondsPerVoiceSample: Double, realTimeFactor: Double) {
        let voiceCount = min(max(voices, 0), SamplerInstrument.hardMaxVoices)
        let blockFrames = 256
        let sampler = prepare(voices: voiceCount, sampleRate: sampleRate, blockFrames: blockFrames, quality: quality)
        let output = StereoBuffer(capacity: blockFrames)
        let blocks = max(1, Int(seconds * sampleRate) / blockFrames)
        let start = monotonicNanoseconds()
        renderBlocks(sampler, into: output, blocks: blocks)
        let elapsed = Double(monotonicNanoseconds() - start)
        let frames = Double(blocks * blockFrames)
        let perVoiceSample = voiceCount == 0 ? 0 : elapsed / (frames * Double(voiceCount))
        return (perVoiceSample, frames / sampleRate / (elapsed * 1e-9))
    }

    /// The instrument with `voices` notes held (their attack already rendered).
    public static func prepare(
        voices: Int, sampleRate: Double, blockFrames: Int, quality: InterpolationQuality = .realtime
    ) -> SamplerInstrument {
        let sampler = SamplerInstrument(sampleRate: sampleRate, maxFrames: blockFrames, maxVoices: max(voices, 1))
        sampler.quality = quality
        sampler.submit(program(sampleRate: sampleRate, voices: max(voices, 1)))
        for voice in 0..<voices {
            sampler.handle(.noteOn(channel: 0, note: UInt8(voiceKey(voice)), velocity: 100))
        }
        let warmUp = StereoBuffer(capacity: blockFrames)
        renderBlocks(sampler, into: warmUp, blocks: Int(0.05 * sampleRate) / blockFrames + 1)
        return sampler
    }

    /// Renders `blocks` blocks into `output` (cleared each time, as the engine does).
    public static func renderBlocks(_ sampler: SamplerInstrument, into output: StereoBuffer, blocks: Int) {
        let block = output.block(frames: output.capacity)
        for _ in 0..<blocks {
            block.clear()
            sampler.render(into: block)
        }
    }

    private static func voiceKey(_ voice: Int) -> Int { 24 + voice % 96 }

    /// One zone per key; zone i transposes by −12…+12 semitones across the voices.
    private static func program(sampleRate: Double, voices: Int) -> SamplerProgram {
        let waveforms = (0..<16).map { index in harmonicWaveform(index: index, sampleRate: sampleRate) }
        var zones: [SamplerZone] = []
        for voice in 0..<min(voices, 96) {
            let key = voiceKey(voice)
            let transpose = voices > 1 ? -12 + 24 * voice / (min(voices, 96) - 1) : 0
            var zone = SamplerZone(waveform: waveforms[voice % waveforms.count], rootKey: key - transpose)
            zone.minKey = key
            zone.maxKey = key
            zones.append(zone)
        }
        var layer = SamplerLayer()
        layer.ampEnvelope = EnvelopeSettings(attackSeconds: 0.005, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0.2)
        // Cannot fail: every zone uses layer 0 and its waveform's own loop.
        let program = try! SamplerProgram(layers: [layer], zones: zones, globals: SamplerGlobals(gainDecibels: -24, voiceCount: voices))
        program.buildAllLevels()  // the voices read band-limited levels, as they do live
        return program
    }

    /// One second of a decaying-harmonics tone, looped over its last half.
    private static func harmonicWaveform(index: Int, sampleRate: Double) -> SamplerWaveform {
        let frames = Int(sampleRate)
        let fundamental = 110.0 * Double(index + 1) / 4
        let samples = (0..<frames).map { n -> Float in
            let t = Double(n) / sampleRate
            var value = 0.0
            for harmonic in 1...4 { value += sin(2 * Double.pi * fundamental * Double(harmonic) * t) / Double(harmonic) }
            return Float(0.4 * value)
        }
        // Cannot fail: one channel, positive rate, loop inside the frames.
        return try! SamplerWaveform(
            channels: [samples], sampleRate: sampleRate, naturalLoop: SamplerLoop(startFrame: frames / 2, endFrame: frames))
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

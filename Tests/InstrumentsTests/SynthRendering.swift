import DSP
import Instruments
import MIDI

/// Drives a `SineSynth` the way the engine does: messages at block starts, blocks of `blockFrames`.
struct SynthRig {
    let synth: SineSynth
    let buffer: StereoBuffer
    let blockFrames: Int
    static let rate = 48000.0

    /// CC7 at full on every channel (General MIDI starts it at 100), so tests measure the voice's level.
    init(voices: Int = 32, blockFrames: Int = 64, envelope: EnvelopeSettings? = nil) {
        synth = SineSynth(sampleRate: Self.rate, maxFrames: blockFrames, maxVoices: voices)
        if let envelope { synth.envelope = envelope }
        for channel in UInt8(0)..<16 { synth.handle(.controlChange(channel: channel, controller: MIDIController.volume, value: 127)) }
        buffer = StereoBuffer(capacity: blockFrames)
        self.blockFrames = blockFrames
    }

    /// Renders `seconds` of audio (left channel), sending `messages` before the first block.
    func render(seconds: Double, messages: [MIDIMessage] = []) -> [Float] {
        for m in messages { synth.handle(m) }
        var out: [Float] = []
        let total = Int(seconds * Self.rate)
        out.reserveCapacity(total)
        while out.count < total {
            let n = min(blockFrames, total - out.count)
            let block = buffer.block(frames: n)
            block.clear()
            synth.render(into: block)
            out.append(contentsOf: UnsafeBufferPointer(start: block.left, count: n))
        }
        return out
    }
}

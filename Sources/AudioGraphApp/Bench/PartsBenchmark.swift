import ALSAIO
import DSP
import Engine
import MIDI

/// The instrument as a General MIDI sound module under load: all 16 parts sounding 8 voices each
/// (sampler programs from several families, the synth on channel 2, the drum kit on channel 10
/// re-struck every 250 ms), master filters on. Release builds only mean anything.
struct PartsBenchmark {
    static let voicesPerPart = 8
    /// One program per channel, from different General MIDI families (channel 2 keeps the synth,
    /// channel 10 the drum kit).
    static let programs: [UInt8] = [0, 0, 33, 25, 48, 81, 16, 56, 89, 0, 4, 40, 105, 73, 114, 120]

    let engine: AudioEngine
    let blockFrames: Int

    init(loader: InstrumentLoader, sampleRate: Double, blockFrames: Int) throws {
        var l = loader
        l.assignments = ["master.lowpass.enabled=on", "master.highpass.enabled=on", "synth.sustain=1",
                         "synth.voices=\(Self.voicesPerPart)", "sampler.voices=\(15 * Self.voicesPerPart)"] + loader.assignments
        engine = try l.makeEngine(configuration: EngineConfiguration(sampleRate: sampleRate, maxFrames: blockFrames, maxSamplerVoices: 128))
        self.blockFrames = blockFrames
    }

    /// Mean nanoseconds per block over `seconds`, and the mean number of voices sounding.
    func nanosecondsPerBlock(seconds: Double) -> (nanoseconds: Double, voices: Double) {
        let out = StereoBuffer(capacity: blockFrames)
        var start: [TimedMIDIMessage] = []
        for channel in UInt8(0)..<16 where channel != 9 {
            start.append(TimedMIDIMessage(frameOffset: 0, message: .programChange(channel: channel, program: Self.programs[Int(channel)])))
            // The pedal keeps every note sounding from its loop.
            start.append(TimedMIDIMessage(frameOffset: 0, message: .controlChange(channel: channel, controller: MIDIController.sustainPedal, value: 127)))
            for v in 0..<Self.voicesPerPart {
                start.append(TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: channel, note: UInt8(36 + 5 * v + Int(channel) % 5), velocity: 90)))
            }
        }
        // GM kit: kick, snare, closed/open hi-hat, toms, crash, ride.
        let drums = [36, 38, 42, 46, 45, 48, 49, 51].map { TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 9, note: UInt8($0), velocity: 100)) }
        start.withUnsafeBufferPointer { engine.render(output: out.block(frames: blockFrames), events: $0) }
        let rate = engine.configuration.sampleRate
        let restrike = max(1, Int(0.25 * rate) / blockFrames)
        func block(_ n: Int) {
            if n % restrike == 0 {
                drums.withUnsafeBufferPointer { engine.render(output: out.block(frames: blockFrames), events: $0) }
            } else {
                engine.render(output: out.block(frames: blockFrames))
            }
        }
        for n in 0..<100 { block(n) }
        let blocks = max(1, Int(seconds * rate) / blockFrames)
        var voices = 0
        let begin = MonotonicClock.nanoseconds()
        for n in 0..<blocks {
            block(n)
            if n % 64 == 0 { voices += engine.meters.activeVoices }
        }
        let elapsed = Double(MonotonicClock.nanoseconds() - begin)
        return (elapsed / Double(blocks), Double(voices) / Double((blocks + 63) / 64))
    }
}

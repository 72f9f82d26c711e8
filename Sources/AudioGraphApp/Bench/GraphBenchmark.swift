import ALSAIO
import DSP
import Engine
import Foundation
import Instruments
import MIDI

/// Measures what the render path costs: the full graph per block as a share of the real-time
/// budget, and the synth per voice-sample. Release builds only mean anything.
struct GraphBenchmark {
    let engine: AudioEngine
    let blockFrames: Int
    let synthVoices: Int
    let samplerVoices: Int
    let input: StereoBuffer

    /// The busy instrument: synth notes on channel 2, sampler notes on channel 1 (the instrument's
    /// preset), every loop on, both master filters on, a mic effect on a 196 Hz input; with
    /// `sends` both channels send to the reverb and the chorus (CC91 100, CC93 60), without them
    /// `fx.enabled` is off.
    static func busy(loader: InstrumentLoader, sampleRate: Double, blockFrames: Int, synthVoices: Int, samplerVoices: Int,
                     micEffect: String, sends: Bool = true) throws -> GraphBenchmark {
        var l = loader
        l.playsDemo = true  // the bundled instrument's loops and channel-2 synth belong to its demo
        l.assignments = ["loop.guitar.play=on", "loop.beat.play=on", "loop.file.play=on", "master.lowpass.enabled=on",
                         "master.highpass.enabled=on", "synth.voices=\(synthVoices)", "synth.sustain=1", "mic.effect=\(micEffect)",
                         "sampler.voices=\(samplerVoices)", "fx.enabled=\(sends ? "on" : "off")"]
            + loader.assignments
        let configuration = EngineConfiguration(sampleRate: sampleRate, maxFrames: blockFrames, maxSynthVoices: max(64, synthVoices),
                                                maxSamplerVoices: max(128, samplerVoices))
        let input = StereoBuffer(capacity: blockFrames)
        for i in 0..<blockFrames {
            input.left[i] = Float(0.3 * sin(2 * Double.pi * 196 * Double(i) / sampleRate))
            input.right[i] = input.left[i]
        }
        return GraphBenchmark(engine: try l.makeEngine(configuration: configuration), blockFrames: blockFrames,
                              synthVoices: synthVoices, samplerVoices: samplerVoices, input: input)
    }

    /// Mean nanoseconds per block over `seconds` of audio, with the synth voices held.
    func nanosecondsPerBlock(seconds: Double) -> Double {
        let blocks = max(1, Int(seconds * engine.configuration.sampleRate) / blockFrames)
        startNotes()
        let start = MonotonicClock.nanoseconds()
        renderBlocks(blocks)
        return Double(MonotonicClock.nanoseconds() - start) / Double(blocks)
    }

    /// Renders `blocks` blocks of the sounding graph (the body `audiograph bench --graph-render-blocks`
    /// runs under valgrind --tool=callgrind).
    func renderBlocks(_ blocks: Int) {
        let out = StereoBuffer(capacity: blockFrames)
        let inputBlock = input.block(frames: blockFrames)
        for _ in 0..<blocks { engine.render(output: out.block(frames: blockFrames), input: inputBlock) }
    }

    /// Starts the held notes and sends, then renders 100 blocks so every voice is sounding.
    func startNotes() {
        let out = StereoBuffer(capacity: blockFrames)
        var notes = [UInt8(0), 1].flatMap { channel in
            [TimedMIDIMessage(frameOffset: 0, message: .controlChange(channel: channel, controller: MIDIController.reverbSend, value: 100)),
             TimedMIDIMessage(frameOffset: 0, message: .controlChange(channel: channel, controller: MIDIController.chorusSend, value: 60))]
        }
        notes += (0..<synthVoices).map { TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 1, note: UInt8(36 + $0 % 60), velocity: 100)) }
        // Sustain pedal down so sampler notes keep sounding from their loops.
        notes.append(TimedMIDIMessage(frameOffset: 0, message: .controlChange(channel: 0, controller: 64, value: 127)))
        notes += (0..<samplerVoices).map { TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 0, note: UInt8(24 + $0 % 80), velocity: UInt8(40 + $0 % 80))) }
        let inputBlock = input.block(frames: blockFrames)
        notes.withUnsafeBufferPointer { engine.render(output: out.block(frames: blockFrames), input: inputBlock, events: $0) }
        renderBlocks(100)
    }

    /// Mean nanoseconds per block of an instrument with nothing sounding.
    static func idleNanosecondsPerBlock(loader: InstrumentLoader, sampleRate: Double, blockFrames: Int, seconds: Double) throws -> Double {
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: sampleRate, maxFrames: blockFrames))
        let out = StereoBuffer(capacity: blockFrames)
        let blocks = max(1, Int(seconds * sampleRate) / blockFrames)
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<blocks { engine.render(output: out.block(frames: blockFrames)) }
        return Double(MonotonicClock.nanoseconds() - start) / Double(blocks)
    }

    /// Nanoseconds per voice per sample of the sine synth alone (N voices minus none).
    static func synthNanosecondsPerVoiceSample(voices: Int, sampleRate: Double, blockFrames: Int, seconds: Double) -> Double {
        func run(_ n: Int) -> Double {
            let synth = SineSynth(sampleRate: sampleRate, maxFrames: blockFrames, maxVoices: max(n, 1))
            synth.envelope = EnvelopeSettings(attackSeconds: 0.001, decaySeconds: 0.001, sustainLevel: 1, releaseSeconds: 1)
            for v in 0..<n { synth.handle(.noteOn(channel: 0, note: UInt8(36 + v % 60), velocity: 100)) }
            let out = StereoBuffer(capacity: blockFrames)
            let blocks = max(1, Int(seconds * sampleRate) / blockFrames)
            let start = MonotonicClock.nanoseconds()
            for _ in 0..<blocks {
                out.block(frames: blockFrames).clear()
                synth.render(into: out.block(frames: blockFrames))
            }
            return Double(MonotonicClock.nanoseconds() - start)
        }
        return (run(voices) - run(0)) / (Double(voices) * seconds * sampleRate)
    }
}

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

    /// Notes on channel 2 (the synth), loops on, both master filters on: the busy instrument.
    static func busy(loader: InstrumentLoader, sampleRate: Double, blockFrames: Int, synthVoices: Int, extraSettings: [String]) throws -> GraphBenchmark {
        var l = loader
        l.assignments = ["loop.guitar.play=on", "loop.beat.play=on", "loop.file.play=on", "master.lowpass.enabled=on",
                         "master.highpass.enabled=on", "synth.voices=\(synthVoices)", "synth.sustain=1"] + extraSettings + loader.assignments
        let configuration = EngineConfiguration(sampleRate: sampleRate, maxFrames: blockFrames, maxSynthVoices: max(64, synthVoices))
        return GraphBenchmark(engine: try l.makeEngine(configuration: configuration), blockFrames: blockFrames, synthVoices: synthVoices)
    }

    /// Mean nanoseconds per block over `seconds` of audio, with the synth voices held.
    func nanosecondsPerBlock(seconds: Double) -> Double {
        let out = StereoBuffer(capacity: blockFrames)
        let notes = (0..<synthVoices).map { TimedMIDIMessage(frameOffset: 0, message: .noteOn(channel: 1, note: UInt8(36 + $0 % 60), velocity: 100)) }
        notes.withUnsafeBufferPointer { engine.render(output: out.block(frames: blockFrames), events: $0) }
        let blocks = Int(seconds * engine.configuration.sampleRate) / blockFrames
        for _ in 0..<100 { engine.render(output: out.block(frames: blockFrames)) }
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
            let blocks = Int(seconds * sampleRate) / blockFrames
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

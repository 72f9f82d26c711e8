import AudioFiles
import AudioGraphApp
import AudioTestSupport
import DSP
import Engine
import Foundation
import MIDI
import Testing

/// The offline renderer driven the way `audiograph render` drives it, on the bundled instrument.
@Suite struct OfflineRenderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let defaultInstrument = "\(repository)/Instruments/default.json"
    let rate = 48000.0

    func render(
        _ events: [MIDIFileEvent], instrument: String = defaultInstrument, settings: [String] = [], input: DecodedAudio? = nil,
        block: Int = 256, playsDemo: Bool = false, preset: String? = nil
    ) throws -> [Float] {
        var loader = try InstrumentLoader(instrumentPath: instrument)
        loader.assignments = settings
        loader.playsDemo = playsDemo
        loader.presetOverride = preset
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: block))
        var left: [Float] = []
        _ = try OfflineRenderer(engine: engine, blockFrames: block).render(midi: events, input: input.map(DecodedInput.init)) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
        }
        return left
    }

    static let middleC: [MIDIFileEvent] = [
        MIDIFileEvent(seconds: 0, track: 0, message: .noteOn(channel: 0, note: 60, velocity: 100)),
        MIDIFileEvent(seconds: 0.5, track: 0, message: .noteOff(channel: 0, note: 60, velocity: 0)),
    ]

    /// Each bundled instrument, rendered from its own file, plays its channel-1 preset at C4.
    @Test(arguments: ["default.json", "headless.json"])
    func bundledInstrumentsLoadAndPlayTheirPreset(file: String) throws {
        let out = try render(Self.middleC, instrument: "\(Self.repository)/Instruments/\(file)")
        #expect(Measure.rms(out[4800..<24000]) > 0.01, "\(file): the sampler plays the instrument's preset")
        let c4 = Measure.noteFrequency(60)
        let measured = try #require(Measure.frequency(out[4800..<24000], sampleRate: rate, guess: c4))
        #expect(abs(Measure.cents(measured, relativeTo: c4)) < 2, "\(file): C4 at \(measured) Hz")
    }

    /// The two files differ in `master.gain` (default −1 dB, headless unset = 0 dB) and only
    /// negligibly at 262 Hz otherwise: the same note on the same preset (`--preset` Keys) comes out
    /// 1 dB louder from headless.json.
    @Test func eachInstrumentFileAppliesItsOwnSettings() throws {
        let c4 = Measure.noteFrequency(60)
        func level(_ file: String) throws -> Double {
            let out = try render(
                Self.middleC, instrument: "\(Self.repository)/Instruments/\(file)", preset: "\(Self.repository)/Presets/Keys.aupreset")
            return Measure.decibels(Measure.amplitude(out[4800..<24000], at: c4, sampleRate: rate))
        }
        let (defaultLevel, headlessLevel) = (try level("default.json"), try level("headless.json"))
        #expect(defaultLevel > -40, "level floor: \(defaultLevel) dBFS")
        #expect(abs(headlessLevel - defaultLevel - 1) < 0.05, "headless \(headlessLevel) dB vs default \(defaultLevel) dB")
    }

    /// `render`'s block (4096 frames by default, as large as the engine takes) does not move
    /// events: a note struck between two 64-frame chunks starts on its own frame with a block of
    /// 4096 as with 256, and the note sounds the same.
    @Test func aNoteStartsOnItsOwnFrameWhateverTheBlock() throws {
        let strike = 0.1234, release = 0.4
        let song = [MIDIFileEvent(seconds: strike, track: 0, message: .noteOn(channel: 1, note: 69, velocity: 100)),
                    MIDIFileEvent(seconds: release, track: 0, message: .noteOff(channel: 1, note: 69, velocity: 0))]
        let settings = ["master.lowpass.enabled=off", "master.highpass.enabled=off", "fx.enabled=off"]
        let headless = "\(Self.repository)/Instruments/headless.json"
        let small = try render(song, instrument: headless, settings: settings, block: 256)
        let large = try render(song, instrument: headless, settings: settings, block: 4096)
        let onsets = (small.firstIndex { $0 != 0 }, large.firstIndex { $0 != 0 })
        let frame = Int((strike * rate).rounded())
        #expect(onsets.0 == frame && onsets.1 == frame, "onsets \(String(describing: onsets)), struck at frame \(frame)")
        let held = frame + 480..<Int(release * rate)
        #expect(Measure.rms(large[held]) > 0.01)
        #expect(abs(Measure.decibels(Measure.rms(large[held])) - Measure.decibels(Measure.rms(small[held]))) < 0.01)
    }

    /// Two renders give identical samples, and the render runs on until the release has finished.
    @Test func renderIsDeterministicAndKeepsTheReleaseTail() throws {
        let song = [MIDIFileEvent(seconds: 0.1, track: 0, message: .noteOn(channel: 1, note: 69, velocity: 100)),
                    MIDIFileEvent(seconds: 0.5, track: 0, message: .noteOff(channel: 1, note: 69, velocity: 0))]
        let settings = ["synth.release=0.4", "master.lowpass.enabled=off", "master.highpass.enabled=off", "fx.enabled=off"]
        // headless.json starts channel 2 on the synth (the default instrument leaves it to the song).
        let headless = "\(Self.repository)/Instruments/headless.json"
        let a = try render(song, instrument: headless, settings: settings)
        let b = try render(song, instrument: headless, settings: settings)
        #expect(a == b)
        let lastSound = a.lastIndex { abs($0) > 1e-4 }!
        #expect(abs(Double(lastSound) / rate - 0.9) < 0.005, "the 0.4 s release after the note-off at 0.5 s is rendered")
        // Then it stops once the output has stayed below −96 dBFS for 0.5 s (the renderer's silence
        // rule), at a block boundary: not sooner, and not at the 30 s tail limit.
        let silence = Float(Decibels.gain(OfflineRenderer.silenceDecibels))
        let silentRun = a.count - (a.lastIndex { abs($0) >= silence }! + 1)
        #expect(silentRun >= Int(0.5 * rate) && silentRun <= Int(0.5 * rate) + 2 * 256, "\(silentRun) silent frames at the end")
    }

    /// `--input` feeds the mic bus: the delay effect repeats an impulse exactly `time` later.
    @Test func inputFileGoesThroughTheMicEffect() throws {
        var impulse = [Float](repeating: 0, count: 48000)
        impulse[1000] = 0.5
        let input = DecodedAudio(sampleRate: rate, channels: [impulse], frameCount: impulse.count, metadata: SampleMetadata(), formatDescription: "test")
        let out = try render([], settings: ["mic.effect=delay", "mic.delay.time=0.1", "mic.delay.feedback=0", "mic.delay.mix=0.5",
                                            "master.lowpass.enabled=off", "master.highpass.enabled=off"], input: input)
        let echoes = out.indices.filter { abs(out[$0]) > 0.05 }
        #expect(echoes == [1000, 5800], "dry impulse at 1000 and its echo 0.1 s = 4800 frames later, nothing else")
    }

    /// The demo, with the loops and mappings only it uses (CC 102/103 on channel 16 start them).
    @Test func theDemoSongRendersEveryBarWithoutClipping() throws {
        let demo = try MIDIFile.read(path: "\(Self.repository)/Sounds/demo.mid")
        let out = try render(Array(demo.events), playsDemo: true)
        #expect(Double(out.count) / rate >= demo.durationSeconds)
        #expect(Measure.peak(out) < 1, "no clipping")
        for second in 0..<Int(demo.durationSeconds) {
            #expect(Measure.rms(out[(second * 48000)..<((second + 1) * 48000)]) > 0.01, "sound in second \(second)")
        }
    }
}

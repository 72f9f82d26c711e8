import ALSAIO
import AudioFiles
import AudioGraphApp
import DSP
import Engine
import Foundation
import MIDI
import Presets
import Sampler
import SamplerLoading
import SoundFont

/// One entry point per outside format. Each must return normally for any bytes: a trap, a hang or
/// an unbounded allocation is a finding (libFuzzer reports it with the input that caused it).
enum FuzzTarget: String, CaseIterable {
    /// Property-list parser + preset model + program builder, then one note rendered.
    case preset
    /// Standard MIDI File reader.
    case midiFile = "midi-file"
    /// Live MIDI byte decoder and the ALSA sequencer-event translation (both directions).
    case midiLive = "midi-live"
    /// Instrument file (JSON) and its parameter values applied to a parameter table.
    case instrument
    /// Our AIFF/WAV/CAF chunk readers (through a file: libsndfile and the CAF reader read paths).
    case audioFile = "audio-file"
    /// `--set name=value` / control-socket `set` parameter parser.
    case parameter
    /// SoundFont (SF2/SF3) loader, the combination rules for every preset, and every sample read
    /// (SF3 streams decoded), as `soundfont list --verify` does.
    case soundfont

    func run(_ bytes: [UInt8]) {
        switch self {
        case .preset: Self.preset(bytes)
        case .midiFile: _ = try? MIDIFile.parse(bytes)
        case .midiLive: Self.midiLive(bytes)
        case .instrument: Self.instrument(bytes)
        case .audioFile: Self.audioFile(bytes)
        case .parameter: _ = try? Self.parameters.apply(assignment: String(decoding: bytes, as: UTF8.self))
        case .soundfont: Self.soundFont(bytes)
        }
    }

    /// Built once: the table's shape never changes, and values are re-validated on every set.
    static let parameters = try! AudioEngine(configuration: EngineConfiguration(maxFrames: 64)).parameters
    nonisolated(unsafe) static let sampler = SamplerInstrument(sampleRate: 48_000, maxFrames: 64, maxVoices: 8)
    nonisolated(unsafe) static let block = StereoBuffer(capacity: 64)
    static let scratchFile = NSTemporaryDirectory() + "audiograph-fuzz-\(getpid())"

    static func preset(_ bytes: [UInt8]) {
        guard let preset = try? AUPreset.parse(data: bytes, path: "/nonexistent/fuzz.aupreset"),
            let loaded = try? SamplerProgramBuilder.build(
                preset: preset, presetPath: "/nonexistent/fuzz.aupreset", searchDirectories: [], sampleRate: 48_000,
                userDirectories: [])
        else { return }
        _ = preset.checkReport(resolver: SamplePathResolver(presetPath: preset.path, userDirectories: []))
        sampler.submit(loaded.program)
        let out = block.block(frames: 64)
        for message in [MIDIMessage.noteOn(channel: 0, note: 60, velocity: 100), .pitchBend(channel: 0, value: 8191),
                        .controlChange(channel: 0, controller: 1, value: 127)] {
            sampler.handle(message)
            out.clear()
            sampler.render(into: out)
        }
        sampler.reset()
        _ = sampler.collectGarbage()
    }

    static func midiLive(_ bytes: [UInt8]) {
        var decoder = MIDIByteDecoder()
        for byte in bytes {
            if let message = decoder.decode(byte) {
                let fields = SequencerEventTranslator.fields(for: message)
                _ = SequencerEventTranslator.message(from: fields)
            }
        }
        // Raw sequencer events from the bytes, 12 at a time (type, channel, note, velocity, param, value).
        var i = 0
        while i + 12 <= bytes.count {
            func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
            let fields = SequencerEventFields(
                type: bytes[i], channel: bytes[i + 1], note: bytes[i + 2], velocity: bytes[i + 3], param: word(i + 4),
                value: Int32(bitPattern: word(i + 8)))
            _ = SequencerEventTranslator.message(from: fields)
            i += 12
        }
    }

    static func instrument(_ bytes: [UInt8]) {
        guard let file = try? InstrumentFile.decode(bytes, path: "fuzz.json") else { return }
        for (name, value) in file.parameters ?? [:] { try? parameters.set(name, text: value.text) }
    }

    static func soundFont(_ bytes: [UInt8]) {
        guard let font = try? SoundFontFile.parse(bytes: bytes, path: "fuzz.sf2") else { return }
        let report = SoundFontReport(font, verifySamples: true)
        precondition(report.playablePresets <= font.presets.count)
        for index in font.samples.indices {
            guard let frames = try? font.sampleFrames(index) else { continue }
            precondition(frames.count <= SoundFontSample.maxFrames)
        }
    }

    static func audioFile(_ bytes: [UInt8]) {
        guard FileManager.default.createFile(atPath: scratchFile, contents: Data(bytes)) else { return }
        _ = try? AudioFileReader.read(path: scratchFile)
    }
}

#if FUZZING
    /// libFuzzer's entry point; the target comes from AUDIOGRAPH_FUZZ_TARGET (see scripts/fuzz).
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzEntry.target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// SwiftPM gives every executable a Swift `main`, so libFuzzer is started through its driver
    /// function rather than its own `main`.
    @main enum FuzzEntry {
        static let target: FuzzTarget = {
            let name = ProcessInfo.processInfo.environment["AUDIOGRAPH_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTarget(rawValue: name) else {
                fatalError("set AUDIOGRAPH_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
            }
            return target
        }()

        static func main() {
            _ = target
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        }
    }
#else
    /// Without libFuzzer: replays files (a corpus, or a crash input) through a target, so the seed
    /// corpus runs in every build and a finding can be reproduced under the debugger.
    ///   audiograph-fuzz TARGET FILE…
    @main enum Replay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                print("usage: audiograph-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE…")
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                target.run([UInt8](data))
                count += 1
            }
            print("\(name): \(count) inputs replayed, no crash")
        }
    }
#endif

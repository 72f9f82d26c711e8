import AudioFiles
import AudioTestSupport
import Presets
import Sampler
import SamplerLoading
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Presets written as XML, samples written as WAV files, loaded through AudioFiles and Presets.
@Suite struct ProgramBuilderTests {
    let pitchToleranceCents = 0.5
    /// 100-frame period at 44.1 kHz: a 441 Hz tone, looped over whole periods.
    let toneHz = 441.0
    let fileLoop = SampleLoop(startFrame: 10_000, endFrame: 40_000)

    func writeTone(_ directory: TemporaryDirectory, _ relative: String, rootKey: Int? = 69) throws -> String {
        let path = directory.file(relative)
        try writeSineWAV(to: path, periodFrames: 100, periods: 441, rootKey: rootKey, loop: fileLoop)
        return path
    }

    func pitch(_ result: SamplerLoadResult, key: Int, frames: Int = 48_000) throws -> Double {
        let sampler = instrument(playing: result.program)
        let out = render(sampler, frames: frames, events: [At(0, noteOn(key))])
        return try #require(Measure.frequency(Array(out.left[4_800...]), sampleRate: testSampleRate))
    }

    @Test func rootKeyAndLoopComeFromTheFileWhenThePresetOmitsThem() throws {
        let directory = TemporaryDirectory()
        _ = try writeTone(directory, "Sounds/tone.wav")
        let text = PresetText.oneSample("Sounds/tone.wav", zone: "<key>loop enabled</key><true/>")
        let result = try buildPreset(text, in: directory)
        let info = try #require(result.samples.first)
        guard case .loaded(let path, _, let facts) = info.status else {
            Issue.record("sample not loaded: \(info.status)")
            return
        }
        #expect(path.hasSuffix("/Sounds/tone.wav"))
        #expect(facts.frameCount == 44_100 && facts.sampleRate == 44_100 && facts.rootKey == 69)
        #expect(facts.loop == SamplerLoop(startFrame: 10_000, endFrame: 40_000))
        // Key 81 = +12 from the file's root: 882 Hz; 3 s outlasts the 0.5 s the sample takes at 2×.
        let sampler = instrument(playing: result.program)
        let out = render(sampler, frames: 144_000, events: [At(0, noteOn(81))])
        let late = Array(out.left[96_000..<144_000])
        let measured = try #require(Measure.frequency(late, sampleRate: testSampleRate))
        #expect(abs(Measure.cents(measured, relativeTo: 2 * toneHz)) < pitchToleranceCents)
        #expect(abs(Measure.decibels(Measure.rms(late) / Measure.rms(Array(out.left[4_800..<20_000])))) < 0.1)
    }

    @Test func presetRootKeyWinsOverTheFile() throws {
        let directory = TemporaryDirectory()
        _ = try writeTone(directory, "tone.wav")
        let text = PresetText.oneSample("tone.wav", zone: "<key>root key</key><integer>57</integer>")
        let measured = try pitch(try buildPreset(text, in: directory), key: 69)
        #expect(abs(Measure.cents(measured, relativeTo: 2 * toneHz)) < pitchToleranceCents)
    }

    @Test func fileWithoutRootKeyDefaultsTo60() throws {
        let directory = TemporaryDirectory()
        _ = try writeTone(directory, "tone.wav", rootKey: nil)
        let text = PresetText.oneSample("tone.wav")
        let measured = try pitch(try buildPreset(text, in: directory), key: 67)
        #expect(abs(Measure.cents(measured, relativeTo: toneHz * pow(2, 7.0 / 12))) < pitchToleranceCents)
    }

    @Test func missingSampleSilencesOnlyItsZones() throws {
        let directory = TemporaryDirectory()
        _ = try writeTone(directory, "tone.wav")
        let zones = PresetText.zone(id: 1, waveform: 1, "<key>max key</key><integer>59</integer>")
            + PresetText.zone(id: 2, waveform: 2, "<key>min key</key><integer>60</integer>")
        let text = PresetText.preset(
            layers: PresetText.layer(zones: zones),
            references: PresetText.reference(1, "tone.wav") + PresetText.reference(2, "gone.wav"))
        let result = try buildPreset(text, in: directory)
        #expect(result.samples.map(\.isLoaded) == [true, false])
        #expect(result.warnings.contains { $0.contains("Sample:2") && $0.contains("gone.wav") })
        let out = render(instrument(playing: result.program), frames: 9_600, events: [At(0, noteOn(50)), At(0, noteOn(70))])
        #expect(Measure.peak(out.left) > 0.1)
    }

    @Test func nothingPlayableIsAnErrorListingEveryPathTried() throws {
        let directory = TemporaryDirectory()
        let text = PresetText.preset(
            layers: PresetText.layer(zones: PresetText.zone(id: 1, waveform: 7)),
            references: PresetText.reference(7, "/Users/someone/Library/Audio/Sounds/Piano/c4.wav"))
        do {
            _ = try buildPreset(text, in: directory)
            Issue.record("expected an error")
        } catch let error as SamplerLoadError {
            let message = error.description
            #expect(message.contains("/Users/someone/Library/Audio/Sounds/Piano/c4.wav"))
            #expect(message.contains(directory.path + "/Sounds/Piano/c4.wav"))
        }
    }

    @Test func corruptSampleIsReportedAsUnreadable() throws {
        let directory = TemporaryDirectory()
        let bad = try directory.write("RIFF this is not audio", to: "bad.wav")
        let text = PresetText.oneSample("bad.wav")
        do {
            _ = try buildPreset(text, in: directory)
            Issue.record("expected an error")
        } catch let error as SamplerLoadError {
            guard case .noPlayableZone(_, let samples) = error, case .unreadable(let path, _) = samples.first?.status else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == bad)
            #expect(error.description.contains(bad))
        }
    }

    @Test func tn2283FallbackFindsTheSampleUnderASearchDirectory() throws {
        let directory = TemporaryDirectory()
        let library = TemporaryDirectory()
        _ = try writeTone(library, "Sounds/Piano/c4.wav")
        let text = PresetText.preset(
            layers: PresetText.layer(zones: PresetText.zone(id: 1, waveform: 7)),
            references: PresetText.reference(7, "file://localhost/Users/someone/Library/Audio/Sounds/Piano/c4.wav"))
        let result = try buildPreset(text, in: directory, searchDirectories: [library.path])
        guard case .loaded(let path, let how, _) = try #require(result.samples.first).status else {
            Issue.record("not loaded")
            return
        }
        #expect(path == library.path + "/Sounds/Piano/c4.wav")
        #expect(how.contains("TN2283"))
    }

    @Test func sharedFileIsLoadedOnce() throws {
        let directory = TemporaryDirectory()
        _ = try writeTone(directory, "tone.wav")
        let zones = PresetText.zone(id: 1, waveform: 1, "<key>max key</key><integer>59</integer>")
            + PresetText.zone(id: 2, waveform: 2, "<key>min key</key><integer>60</integer>")
            + PresetText.zone(id: 3, waveform: 1, "<key>min key</key><integer>100</integer>")
        let text = PresetText.preset(
            layers: PresetText.layer(zones: zones),
            references: PresetText.reference(1, "tone.wav") + PresetText.reference(2, "./tone.wav"))
        let result = try buildPreset(text, in: directory)
        #expect(result.samples.map(\.zoneCount) == [2, 1])
        #expect(result.program.storedRegionCount == 1)
    }

    @Test func builtInSinePlays440AtKey69() throws {
        let directory = TemporaryDirectory()
        let zone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>loop end</key><integer>11999</integer><key>root key</key><integer>69</integer>")
        let result = try buildPreset(PresetText.preset(layers: PresetText.layer(zones: zone)), in: directory)
        #expect(result.samples.isEmpty)
        let measured = try pitch(result, key: 69)
        #expect(abs(Measure.cents(measured, relativeTo: 440)) < pitchToleranceCents)
    }
}

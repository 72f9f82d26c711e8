import AudioFiles
import AudioTestSupport
import Foundation
import MIDI
import Presets
import Sampler
import SamplerLoading
import Testing

/// Issue 10 cases 3, 5 and 9: presets whose numbers `preset check` used to call playable but that
/// crashed the render or made NaN. Now every number is bounded at the decoder, with a warning that
/// gives the allowed range, so what loads plays: finite, audible, at a sane level.
@Suite struct HostilePresetTests {
    let sineZone = PresetText.zone(id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>")

    func build(layerExtra: String = "", zoneExtra: String = "", top: String = "") throws -> SamplerLoadResult {
        let zone = PresetText.zone(
            id: 0, waveform: -2, "<key>loop enabled</key><true/><key>root key</key><integer>69</integer>\(zoneExtra)")
        return try buildPreset(PresetText.preset(layers: PresetText.layer(extra: layerExtra, zones: zone), top: top), in: TemporaryDirectory())
    }

    /// Plays A4 with the pitch wheel and mod wheel moved (the LFO runs); returns the output.
    func play(_ result: SamplerLoadResult) -> Rendered {
        render(instrument(playing: result.program), frames: 24_000, events: [
            At(0, noteOn(69)), At(2_400, .pitchBend(channel: 0, value: 8_191)), At(4_800, controlChange(1, 127)),
            At(9_600, .pitchBend(channel: 0, value: -8_192)),
        ])
    }

    func connection(id: Int, source: Int, control: Int = 0, scale: String) -> String {
        """
        <dict><key>ID</key><integer>\(id)</integer><key>control</key><integer>\(control)</integer>
        <key>destination</key><integer>816840704</integer><key>enabled</key><true/>
        <key>source</key><integer>\(source)</integer><key>transform</key><integer>1</integer>
        <key>scale</key><real>\(scale)</real></dict>
        """
    }

    @Test func absurdArticulationNumbersAreBoundedAndThePresetPlays() throws {
        let layer = """
            <key>Connections</key><array>\(connection(id: 0, source: 224, scale: "1.7e308"))\(connection(id: 1, source: 0x1000_0000, control: 1, scale: "1e308"))
            \(connection(id: 2, source: 300, scale: "12800"))</array>
            <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>
            <dict><key>stage</key><integer>1</integer><key>time</key><real>1e308</real></dict>
            <dict><key>stage</key><integer>5</integer><key>time</key><real>1e308</real></dict></array></dict></array>
            <key>Filters</key><dict><key>enabled</key><true/><key>cutoff</key><real>2000</real><key>resonance</key><real>-1e308</real></dict>
            <key>LFOs</key><array><dict><key>ID</key><integer>0</integer><key>rate</key><real>1e308</real></dict></array>
            """
        let result = try build(layerExtra: layer)
        let warnings = result.warnings.joined(separator: "\n")
        for expected in [
            "Connections[0].scale: 1.7e+308 is outside the allowed -100000…100000; using 100000",
            "Stages[0].time", "allowed 0…100; using 100", "Filters.resonance", "allowed -20…40; using -20",
            "LFOs[0].rate", "allowed 0…100; using 100",
        ] {
            #expect(warnings.contains(expected), "missing \(expected) in:\n\(warnings)")
        }
        let out = play(result)
        #expect(out.left.allSatisfy { $0.isFinite } && out.right.allSatisfy { $0.isFinite })
        #expect(Measure.peak(out.left) < 4, "bounded level")
    }

    /// The `data` blob is big-endian {scope, element, count, {id, Float32}…}: NaN coarse and fine tune.
    @Test func aNaNTuneInTheDataBlobIsReplacedWithAWarning() throws {
        var blob: [UInt8] = []
        func word(_ v: UInt32) { blob += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        for v in [0, 0, 3, 901, Float.nan.bitPattern, 902, Float.nan.bitPattern, 900, Float.infinity.bitPattern] as [UInt32] { word(v) }
        let result = try build(top: "<key>data</key><data>\(Data(blob).base64EncodedString())</data>")
        let warnings = result.warnings.joined(separator: "\n")
        #expect(warnings.contains("coarse tune: nan is outside the allowed -24…24; using 0"), "\(warnings)")
        #expect(warnings.contains("fine tune: nan is outside the allowed -99…99; using 0"), "\(warnings)")
        #expect(warnings.contains("gain: inf is outside the allowed -90…12; using 12"), "\(warnings)")
        let out = render(instrument(playing: result.program), frames: 9_600, events: [At(0, noteOn(69))])
        #expect(out.left.allSatisfy { $0.isFinite })
        let hz = Measure.frequency(out.left[4_800...], sampleRate: testSampleRate, guess: 440)!
        #expect(abs(Measure.cents(hz, relativeTo: 440)) < 1, "plays in tune: \(hz) Hz")
    }

    /// Case 9: a zone gain of 300 dB (or 1e308) is clamped to +24 dB with a warning.
    @Test(arguments: ["300", "1e308"])
    func zoneGainIsClampedToASaneMaximum(gain: String) throws {
        let result = try build(zoneExtra: "<key>gain</key><real>\(gain)</real>")
        #expect(result.warnings.contains { $0.contains("Zones[0].gain") && $0.contains("allowed -96…24; using 24") }, "\(result.warnings)")
        let loud = play(result)
        #expect(loud.left.allSatisfy { $0.isFinite })
        let reference = play(try build())
        let difference = Measure.decibels(Measure.rms(loud.left[1_000..<2_400])) - Measure.decibels(Measure.rms(reference.left[1_000..<2_400]))
        #expect(abs(difference - 24) < 0.5, "exactly +24 dB louder than the same zone at 0 dB: \(difference)")
    }

    /// Case 9: more than two channels is refused with what to do, not silently cut to two.
    @Test func aSixChannelSampleIsRefusedWithAClearReason() throws {
        let directory = TemporaryDirectory()
        // 16-bit PCM, 6 channels, 441 frames of silence (WAVFileWriter writes at most 2 channels).
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let data = [UInt8](repeating: 0, count: 441 * 12)
        let wav = Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(6, 2)
            + le(44_100, 4) + le(44_100 * 12, 4) + le(12, 2) + le(16, 2) + Array("data".utf8) + le(data.count, 4) + data
        _ = try directory.write(wav, to: "six.wav")
        let zone = PresetText.zone(id: 0, waveform: 1, "<key>root key</key><integer>60</integer>")
        let text = PresetText.preset(layers: PresetText.layer(zones: zone), references: "<key>Sample:1</key><string>six.wav</string>")
        let path = try directory.write(text, to: "Six.aupreset")
        let preset = try AUPreset.load(path: path)
        #expect(throws: SamplerLoadError.self) {
            try SamplerProgramBuilder.build(preset: preset, presetPath: path, searchDirectories: [], sampleRate: testSampleRate, userDirectories: [])
        }
        do {
            _ = try SamplerProgramBuilder.build(preset: preset, presetPath: path, searchDirectories: [], sampleRate: testSampleRate, userDirectories: [])
        } catch {
            #expect(error.description.contains("6 channels; the sampler plays mono or stereo samples"), "\(error.description)")
        }
    }

    /// 100,000 missing samples: the error names the first 10 and counts the rest (it was 46 MB).
    @Test func theUnplayablePresetMessageIsBounded() throws {
        let count = 100_000
        let references = (0..<count).map { "<key>Sample:\($0 + 1)</key><string>missing-\($0).wav</string>" }.joined()
        // At most 4,096 zones per layer: spread them over layers of 4,000.
        let layers = stride(from: 0, to: count, by: 4_000).map { start in
            PresetText.layer(id: start, zones: (start..<min(start + 4_000, count)).map {
                "<dict><key>ID</key><integer>\($0)</integer><key>waveform</key><integer>\($0 + 1)</integer></dict>"
            }.joined())
        }.joined()
        do {
            _ = try buildPreset(PresetText.preset(layers: layers, references: references), in: TemporaryDirectory())
            Issue.record("a preset with every sample missing must not load")
        } catch {
            let text = "\(error)"
            #expect(text.utf8.count < 4_000, "bounded: \(text.utf8.count) bytes")
            #expect(text.contains("missing-0.wav") && text.contains("and 99990 more samples"), "\(text.prefix(2_000))")
        }
    }
}

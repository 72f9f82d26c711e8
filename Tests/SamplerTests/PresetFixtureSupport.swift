import AudioTestSupport
import AudioFiles
import Presets
import Sampler

#if canImport(Glibc)
import Glibc
import SamplerLoading
#endif

struct FixtureFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a mono 16-bit WAV of a sine: `periods` whole cycles of `periodFrames` frames, with an
/// optional root key and a loop (end exclusive) in its `smpl` chunk.
func writeSineWAV(
    to path: String, periodFrames: Int, periods: Int, sampleRate: Int = 44_100, rootKey: Int? = nil,
    loop: SampleLoop? = nil
) throws {
    let frames = periodFrames * periods
    let samples = (0..<frames).map { Float(0.5 * sin(2 * Double.pi * Double($0) / Double(periodFrames))) }
    do {
        try WAVFileWriter.write(
            path: path, channels: [samples], sampleRate: sampleRate, encoding: .float32,
            loops: loop.map { [$0] } ?? [], rootKey: rootKey)
    } catch {
        throw FixtureFailure(error.description)
    }
}

/// Inline `.aupreset` text in AU's style.
enum PresetText {
    static func preset(layers: String, references: String = "", top: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            \(top)
            <key>Instrument</key>
            <dict><key>Layers</key><array>\(layers)</array><key>name</key><string>Test</string></dict>
            <key>file-references</key>
            <dict>\(references)</dict>
            <key>manufacturer</key><integer>1634758764</integer>
            <key>name</key><string>Test</string>
            <key>subtype</key><integer>1935764848</integer>
            <key>type</key><integer>1635085685</integer>
            <key>version</key><integer>0</integer>
        </dict>
        </plist>
        """
    }

    static func layer(id: Int = 0, extra: String = "", zones: String) -> String {
        "<dict><key>ID</key><integer>\(id)</integer>\(extra)<key>Zones</key><array>\(zones)</array></dict>"
    }

    static func zone(id: Int, waveform: Int, _ extra: String = "") -> String {
        "<dict><key>ID</key><integer>\(id)</integer><key>enabled</key><true/>\(extra)<key>waveform</key><integer>\(waveform)</integer></dict>"
    }

    static func reference(_ number: Int, _ path: String) -> String {
        "<key>Sample:\(number)</key><string>\(path)</string>"
    }

    /// A preset of one layer with one zone playing `sample` (Sample:1), the zone's own keys in `zone`.
    static func oneSample(_ sample: String, zone: String = "") -> String {
        preset(layers: layer(zones: PresetText.zone(id: 1, waveform: 1, zone)), references: reference(1, sample))
    }

    /// An amp envelope (ID 0) with the given attack and release, sustain 1.
    static func envelope(attackSeconds: Double = 0, releaseSeconds: Double) -> String {
        """
        <key>Envelopes</key><array><dict><key>ID</key><integer>0</integer><key>Stages</key><array>
        <dict><key>stage</key><integer>1</integer><key>time</key><real>\(attackSeconds)</real></dict>
        <dict><key>stage</key><integer>4</integer><key>level</key><real>1</real></dict>
        <dict><key>stage</key><integer>5</integer><key>time</key><real>\(releaseSeconds)</real></dict>
        </array><key>enabled</key><true/></dict></array>
        """
    }
}

/// Writes `text` as `name.aupreset` in `directory`, decodes and builds it at the test rate.
func buildPreset(
    _ text: String, in directory: TemporaryDirectory, searchDirectories: [String] = []
) throws -> SamplerLoadResult {
    let path = try directory.write(text, to: "Test.aupreset")
    let preset: AUPreset
    do {
        preset = try AUPreset.load(path: path)
    } catch {
        throw FixtureFailure(error.description)
    }
    return try SamplerProgramBuilder.build(
        preset: preset, presetPath: path, searchDirectories: searchDirectories, sampleRate: testSampleRate,
        userDirectories: [])
}

import Presets
import Testing

/// The presets shipped in `Presets/` load cleanly and their samples resolve to the repo's `Sounds/`.
@Suite("Bundled presets")
struct BundledPresetsTests {
    /// The repository root, found from this file's path (Tests/PresetsTests/<file>).
    static let repositoryRoot: String = {
        "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    }()
    static let presets = repositoryRoot + "/Presets"
    static let sounds = repositoryRoot + "/Sounds"

    static func load(_ name: String) throws -> AUPreset {
        do {
            return try AUPreset.load(path: presets + "/" + name)
        } catch {
            throw FixtureError(description: error.description)
        }
    }

    /// Where each used sample must resolve, checked with a file system that holds exactly the
    /// expected files under `Sounds/` (so the path logic is tested even before the sounds exist).
    static func expectResolution(_ preset: AUPreset, expected: [Int: String]) {
        let wanted = Set(expected.values)
        let resolver = SamplePathResolver(
            presetPath: preset.path, searchDirectories: [sounds], userDirectories: [],
            fileExists: { wanted.contains($0) })
        let resolved = resolver.resolveUsedSamples(of: preset)
        #expect(Set(resolved.keys) == Set(expected.keys))
        for (waveform, path) in expected {
            guard case .found(let foundPath, let how)? = resolved[waveform] else {
                Issue.record("Sample:\(waveform) not resolved: \(String(describing: resolved[waveform]))")
                continue
            }
            #expect(foundPath == path)
            #expect(how.hasPrefix("TN2283 fallback 'Sounds/"))
        }
    }

    @Test func leadIsOneLoopedZoneResolvedThroughTheSoundsFallback() throws {
        let preset = try Self.load("Lead.aupreset")
        #expect(preset.name == "Lead" && preset.warnings.isEmpty && preset.voiceCount == 64)
        #expect(preset.fileReferences == [1: "/Users/someone/Library/Audio/Sounds/lead.aif"])
        let layer = try #require(preset.layers.first)
        #expect(preset.layers.count == 1 && !layer.usesDefaultConnections)
        #expect(layer.connections == Connection.dlsDefaults(layerID: 0))
        #expect(layer.ampEnvelope?.attackSeconds == 0.01 && layer.ampEnvelope?.releaseSeconds == 0.3)
        #expect(layer.zones == [Zone(id: 1, name: "lead.aif", waveform: 1, rootKey: 60, loopEnabled: true)])
        Self.expectResolution(preset, expected: [1: Self.sounds + "/lead.aif"])
    }

    @Test func keysSplitsThreeRootsIntoSoftAndHardVelocityZones() throws {
        let preset = try Self.load("Keys.aupreset")
        #expect(preset.name == "Keys" && preset.warnings.isEmpty)
        let layer = try #require(preset.layers.first)
        #expect(layer.usesDefaultConnections)
        #expect(layer.ampEnvelope?.releaseSeconds == 0.4)
        #expect(layer.zones.map(\.rootKey) == [48, 48, 60, 60, 72, 72])
        #expect(layer.zones.map(\.minKey) == [0, 0, 54, 54, 66, 66])
        #expect(layer.zones.map(\.maxKey) == [53, 53, 65, 65, 127, 127])
        #expect(layer.zones.map(\.minVelocity) == [0, 90, 0, 90, 0, 90])
        #expect(layer.zones.map(\.maxVelocity) == [89, 127, 89, 127, 89, 127])
        // Sustain loops come from the WAV `smpl` chunks.
        #expect(layer.zones.allSatisfy { $0.loopEnabled && $0.loopStart == nil && $0.loopEnd == nil })
        let coverage = try #require(preset.coverageMap().first)
        #expect(coverage.velocityBands == [0...89, 90...127])
        #expect(coverage.silentKeys.isEmpty)
        #expect(coverage.zoneCounts.allSatisfy { $0 == 1 })
        var expected: [Int: String] = [:]
        for (index, name) in ["48-soft", "48-hard", "60-soft", "60-hard", "72-soft", "72-hard"].enumerated() {
            #expect(preset.fileReferences[index + 1] == "/Users/someone/Music/Sounds/Keys/keys-\(name).wav")
            expected[index + 1] = Self.sounds + "/Keys/keys-\(name).wav"
        }
        Self.expectResolution(preset, expected: expected)
    }

    @Test func sineIsAULabsDefaultBuiltInZone() throws {
        let preset = try Self.load("Sine.aupreset")
        #expect(preset.name == "Sine" && preset.warnings.isEmpty && preset.fileReferences.isEmpty)
        let zone = try #require(preset.layers.first?.zones.first)
        #expect(zone.usesBuiltInSine && zone.rootKey == 69 && zone.loopEnabled)
        #expect(zone.loopStart == 0 && zone.loopEnd == 12000)
        #expect(preset.usedWaveforms.isEmpty)
    }

    /// The General MIDI presets written by `make-sounds`: clean parse, the zones a song needs, and
    /// every zone's sample found on disk under `Sounds/<Folder>/` through the `/Sounds/` fallback.
    static let families = [
        "Piano", "Mallet", "Bell", "Pluck", "Brass", "Reed", "Clarinet", "Flute", "Saw", "Square", "Pad", "Voice", "Membrane", "Overdrive",
    ]
    static let kits = ["Drums", "Drums-Room", "Drums-Power", "Drums-Electronic", "Drums-808", "Drums-Jazz", "Drums-Brush", "Drums-Orchestra"]
    static let gmPresets: [(name: String, zones: Int)] =
        [("Bass", 3), ("Guitar", 3), ("Strings", 3), ("Organ", 3), ("Noise", 1)] + families.map { ($0, 3) } + kits.map { ($0, 61) }

    @Test(arguments: gmPresets)
    func gmPresetParsesAndEverySampleResolves(name: String, zones: Int) throws {
        let preset = try Self.load(name + ".aupreset")
        let isKit = name.hasPrefix("Drums")
        #expect(preset.name == name && preset.warnings.isEmpty)
        let layer = try #require(preset.layers.first)
        #expect(preset.layers.count == 1 && layer.usesDefaultConnections)
        #expect(layer.zones.count == zones && layer.zones.allSatisfy { $0.rootKey != nil })
        #expect(layer.triggerMode == (isKit ? .oneShot : .normal))
        #expect(layer.zones.allSatisfy { $0.loopEnabled == !(isKit || name == "Guitar") })
        let resolver = SamplePathResolver(presetPath: preset.path, userDirectories: [])
        let resolved = resolver.resolveUsedSamples(of: preset)
        #expect(!resolved.isEmpty)
        for (waveform, resolution) in resolved {
            guard case .found(let path, _) = resolution else {
                Issue.record("\(name) Sample:\(waveform): \(resolution)")
                continue
            }
            #expect(path.hasPrefix(Self.sounds + "/\(isKit ? "Drums" : name)/"))
        }
        if !isKit {
            // Melodic: the keyboard is covered end to end, one zone per key.
            let coverage = try #require(preset.coverageMap().first)
            #expect(coverage.silentKeys.isEmpty && coverage.zoneCounts.allSatisfy { $0 == 1 })
        } else {
            // Kits: keys 27–87, one zone each.
            let keys = layer.zones.flatMap { $0.minKey...$0.maxKey }.sorted()
            #expect(keys == Array(27...87))
        }
    }

    /// The real files: runs once the generated sounds are in the repository (main), skipped before.
    @Test(.enabled(if: generatedKeysSamplesExist(), "Sounds/Keys is not generated on this branch"))
    func everyBundledSampleExistsOnDisk() throws {
        for name in ["Lead.aupreset", "Keys.aupreset"] {
            let preset = try Self.load(name)
            let resolver = SamplePathResolver(presetPath: preset.path, userDirectories: [])
            for (waveform, resolution) in resolver.resolveUsedSamples(of: preset) {
                guard case .found = resolution else {
                    Issue.record("\(name) Sample:\(waveform): \(resolution)")
                    continue
                }
            }
        }
    }
}

private func generatedKeysSamplesExist() -> Bool {
    SamplePathResolver.isRegularFile(BundledPresetsTests.sounds + "/Keys/keys-48-soft.wav")
}

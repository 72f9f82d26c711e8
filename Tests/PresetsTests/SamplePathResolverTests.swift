import AudioTestSupport
import Presets
import Testing

/// Sample-path resolution against real temporary directories (and a fake file system where the
/// full list of places tried is the point).
@Suite("Sample path resolution")
struct SamplePathResolverTests {
    @Test func localhostURLWithDoubleSlashAndPercentEscapeIsDecoded() throws {
        let directory = TemporaryDirectory()
        let sample = try directory.touch("Library/Sounds/Tbone/1a#.caf")
        let resolver = SamplePathResolver(presetPath: directory.path + "/P.aupreset", userDirectories: [])
        let reference = "file://localhost/" + directory.path + "/Library/Sounds/Tbone/1a%23.caf"
        #expect(resolver.resolve(reference) == .found(path: sample, how: "file URL: stored path"))
        let spaced = try directory.touch("My Samples/a b.wav")
        #expect(
            resolver.resolve("file://" + directory.path + "/My%20Samples/a%20b.wav")
                == .found(path: spaced, how: "file URL: stored path"))
    }

    @Test func aRawHashIsNotedAndTriedLiterally() throws {
        let directory = TemporaryDirectory()
        let sample = try directory.touch("Tbone/2a#.caf")
        let resolver = SamplePathResolver(presetPath: directory.path + "/P.aupreset", userDirectories: [])
        #expect(
            resolver.resolve("file://" + directory.path + "/Tbone/2a#.caf")
                == .found(
                    path: sample, how: "file URL with a raw '#' (a URL fragment to CFURL; tried literally): stored path"
                ))
    }

    @Test func relativePathsAreTakenFromThePresetsDirectory() throws {
        let directory = TemporaryDirectory()
        let inside = try directory.touch("Presets/Samples/x.wav")
        let beside = try directory.touch("Shared/y.wav")
        let resolver = SamplePathResolver(presetPath: directory.path + "/Presets/P.aupreset", userDirectories: [])
        #expect(resolver.resolve("Samples/x.wav") == .found(path: inside, how: "relative to the preset"))
        #expect(resolver.resolve("../Shared/y.wav") == .found(path: beside, how: "relative to the preset"))
    }

    @Test func soundsFallbackIsFoundUnderAParentDirectoryKeepingTheWholeTail() throws {
        let directory = TemporaryDirectory()
        let sample = try directory.touch("Sounds/Tbone/1a#.caf")
        try directory.touch("Presets/Deep/Tbone/1a#.caf")  // same name, wrong place: not a name search
        let resolver = SamplePathResolver(presetPath: directory.path + "/Presets/Deep/T.aupreset", userDirectories: [])
        let result = resolver.resolve("/Users/geddy/Library/Audio/Sounds/Tbone/1a#.caf")
        #expect(
            result
                == .found(
                    path: sample,
                    how:
                        "TN2283 fallback 'Sounds/Tbone/1a#.caf' under the preset's directory or a parent \(directory.path)"
                ))
    }

    @Test func samplerFilesMarkerIsFoundInASearchDirectory() throws {
        let presets = TemporaryDirectory()
        let library = TemporaryDirectory()
        let sample = try library.touch("Sampler Files/Piano/c4.wav")
        let resolver = SamplePathResolver(
            presetPath: presets.path + "/P.aupreset", searchDirectories: [library.path], userDirectories: [])
        #expect(
            resolver.resolve("/Volumes/Disk/Sampler Files/Piano/c4.wav")
                == .found(
                    path: sample,
                    how: "TN2283 fallback 'Sampler Files/Piano/c4.wav' under the search directory \(library.path)"))
    }

    @Test func aSearchDirectoryMayBeTheSampleFolderItself() throws {
        let presets = TemporaryDirectory()
        let sounds = TemporaryDirectory()
        let sample = try sounds.touch("Keys/keys-48-soft.wav")
        let plain = try sounds.touch("lead.aif")
        let resolver = SamplePathResolver(
            presetPath: presets.path + "/P.aupreset", searchDirectories: [sounds.path], userDirectories: [])
        #expect(
            resolver.resolve("/Users/someone/Music/Sounds/Keys/keys-48-soft.wav")
                == .found(
                    path: sample,
                    how: "TN2283 fallback 'Keys/keys-48-soft.wav' under the search directory \(sounds.path)"))
        #expect(
            resolver.resolve("lead.aif") == .found(path: plain, how: "relative to the search directory \(sounds.path)"))
    }

    @Test func notFoundListsEveryPlaceInOrder() {
        let resolver = SamplePathResolver(
            presetPath: "/p/q/P.aupreset", searchDirectories: ["/s"], userDirectories: ["/u/Documents"],
            fileExists: { _ in false })
        #expect(
            resolver.resolve("/Users/a/Apple Loops/Sounds/x.wav")
                == .notFound(tried: [
                    "/Users/a/Apple Loops/Sounds/x.wav", "/p/q/Sounds/x.wav", "/p/Sounds/x.wav", "/Sounds/x.wav",
                    "/s/Sounds/x.wav", "/s/x.wav", "/u/Documents/Sounds/x.wav",
                ]))
        // A relative reference that starts with a marker folder also gets the fallback.
        #expect(
            resolver.resolve("Apple Loops/beat.caf")
                == .notFound(tried: [
                    "/p/q/Apple Loops/beat.caf", "/s/Apple Loops/beat.caf", "/p/Apple Loops/beat.caf",
                    "/Apple Loops/beat.caf", "/s/beat.caf", "/u/Documents/Apple Loops/beat.caf",
                ]))
        #expect(resolver.resolve("/elsewhere/x.wav") == .notFound(tried: ["/elsewhere/x.wav"]))
        #expect(resolver.resolve("") == .notFound(tried: []))
    }

    @Test func aDirectoryIsNotASample() throws {
        let directory = TemporaryDirectory()
        try directory.makeDirectories(directory.path + "/x.wav")
        let resolver = SamplePathResolver(presetPath: directory.path + "/P.aupreset", userDirectories: [])
        #expect(resolver.resolve("x.wav") == .notFound(tried: [directory.path + "/x.wav (a directory, not a file)"]))
    }

    @Test func onlyReferencesOfEnabledZonesAreResolved() throws {
        let zones =
            PresetFixtures.zone(id: 1, waveform: 1)
            + "<dict><key>ID</key><integer>2</integer><key>enabled</key><false/><key>waveform</key><integer>2</integer></dict>"
        let preset = try PresetFixtures.decode(
            PresetFixtures.sampler(
                layers: PresetFixtures.layer(zones: zones),
                references: PresetFixtures.reference(1, "a.wav") + PresetFixtures.reference(2, "b.wav")
                    + PresetFixtures.reference(3, "unused.wav")),
            path: "/presets/P.aupreset")
        let resolver = SamplePathResolver(
            presetPath: preset.path, userDirectories: [], fileExists: { $0 == "/presets/a.wav" })
        #expect(
            resolver.resolveUsedSamples(of: preset) == [
                1: .found(path: "/presets/a.wav", how: "relative to the preset")
            ])
    }
}

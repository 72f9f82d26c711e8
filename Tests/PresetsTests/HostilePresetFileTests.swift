import AudioTestSupport
import Foundation
import Presets
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 10 cases 4, 11 and 12 for preset files: no unbounded read, no hang, bounded shape.
@Suite struct HostilePresetFileTests {
    let dir = TemporaryDirectory()

    func loadError(_ path: String) -> String? { errorText { _ = try AUPreset.load(path: path) } }

    @Test func devZeroAFIFOAndADirectoryAreRefusedAtOnce() throws {
        #expect(loadError("/dev/zero") == "/dev/zero: cannot read the file: is a character device, not a regular file; give the path of a preset")
        let fifo = dir.file("fifo.aupreset")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(loadError(fifo)?.contains("is a FIFO (named pipe), not a regular file") == true)
        #expect(loadError(dir.path)?.contains("is a directory, not a regular file") == true)
    }

    @Test func aPresetLargerThanTheLimitIsNotRead() throws {
        let path = dir.file("big.aupreset")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(AUPreset.maxFileBytes + 1)) == 0)
        #expect(loadError(path)?.contains("preset is 16777217 bytes, more than the 16 MB allowed") == true, "\(loadError(path) ?? "")")
    }

    @Test func tenThousandLayersAreRefusedWithTheLimit() throws {
        let layers = (0..<10_000).map { PresetFixtures.layer(id: $0, zones: PresetFixtures.zone(id: 0, waveform: -2)) }.joined()
        let error = PresetFixtures.error(PresetFixtures.sampler(layers: layers))
        #expect(error?.description.contains("Instrument.Layers: expected at most 256 layers, found 10000") == true, "\(String(describing: error))")
    }

    @Test func aSamplePathThatIsADirectorySaysSo() throws {
        try dir.makeDirectories(dir.file("Sounds/piano.wav"))
        let resolver = SamplePathResolver(presetPath: dir.file("x.aupreset"), userDirectories: [])
        guard case .notFound(let tried) = resolver.resolve("Sounds/piano.wav") else {
            Issue.record("a directory is not a sample")
            return
        }
        #expect(tried.first?.hasSuffix("Sounds/piano.wav (a directory, not a file)") == true, "\(tried)")
    }
}

import AudioFiles
import AudioTestSupport
import Foundation
import Presets
import Sampler
import SamplerLevels
import SamplerLoading
import Testing

/// Presets that share a sample share it whole: the file is decoded once (recognised by device and
/// inode, whatever path reaches it), its loop's plain copy is made once, and its levels built once.
@Suite struct SampleSharingTests {
    func load(_ directory: TemporaryDirectory, reference: String, files: SampleFiles, name: String) throws -> SamplerProgram {
        let zone = PresetText.zone(id: 0, waveform: 1, "<key>loop enabled</key><true/><key>root key</key><integer>60</integer>")
        let text = PresetText.preset(layers: PresetText.layer(zones: zone), references: PresetText.reference(1, reference))
        let path = try directory.write(text, to: name)
        return try SamplerProgramBuilder.build(
            preset: AUPreset.load(path: path), presetPath: path, searchDirectories: [], sampleRate: testSampleRate,
            userDirectories: [], levels: .byNeed, sampleFiles: files
        ).program
    }

    @Test func presetsOnOneFileShareItsWaveformAndLevels() throws {
        let directory = TemporaryDirectory()
        let wav = directory.file("tone.wav")
        try writeSineWAV(to: wav, periodFrames: 100, periods: 441)
        try FileManager.default.createSymbolicLink(atPath: directory.file("link.wav"), withDestinationPath: wav)
        let files = SampleFiles()
        let programs = try [("tone.wav", "a"), ("./tone.wav", "b"), ("link.wav", "c")].map { reference, name in
            try load(directory, reference: reference, files: files, name: "\(name).aupreset")
        }
        let waveforms = programs.map { $0.zones[0].waveform }
        #expect(waveforms.allSatisfy { $0 === waveforms[0] }, "one decode for three paths to one file")
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30))
        for program in programs { program.buildAllLevels(store: store) }
        let levels = programs.compactMap { $0.publishedLevels.first?.levels }
        #expect(levels.count == 3 && levels.allSatisfy { $0 === levels[0] })
        #expect(store.budget.usedBytes == levels[0].byteCount)
    }

    @Test func aFileIsDecodedAgainOnceEveryProgramPlayingItHasGone() throws {
        let directory = TemporaryDirectory()
        try writeSineWAV(to: directory.file("tone.wav"), periodFrames: 100, periods: 441)
        let files = SampleFiles()
        weak var first: SamplerWaveform?
        do {
            let program = try load(directory, reference: "tone.wav", files: files, name: "a.aupreset")
            first = program.zones[0].waveform
            #expect(first != nil)
        }
        #expect(first == nil, "not kept alive by the cache")
        let again = try load(directory, reference: "tone.wav", files: files, name: "b.aupreset")
        #expect(again.zones[0].waveform.frameCount == 44_100)
    }
}

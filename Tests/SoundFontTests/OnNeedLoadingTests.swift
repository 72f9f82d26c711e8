import DSP
import Foundation
import MIDI
import Sampler
import SamplerLevels
import SoundFont
import SoundFontLoading
import Synchronization
import Testing

/// A font loaded for `play` (`samples: .onNeed`) reads its structure only: every zone plays a
/// deferred waveform, read from the file by range when the live builder prepares its region,
/// the same frames a load reads (16-bit, 24-bit, Vorbis); before the first period only the start
/// programs' frames are read; a file cut short after loading gives one line and silence.
@Suite("SoundFont samples read on need")
struct OnNeedLoadingTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// Every zone's waveform of `bank`, in order.
    func waveforms(_ bank: SoundFontBank) -> [SamplerWaveform] { bank.programs.flatMap { $0.zones.map(\.waveform) } }

    @Test func loadingForPlayReadsNoSampleDataAndKeepsNoMapping() throws {
        var font24 = Fixtures.minimal()
        font24.sm24 = (0..<146).map { UInt8(truncatingIfNeeded: $0 * 37) }
        for (writer, bytesPerFrame) in [(Fixtures.minimal(), 2), (font24, 4)] {
            let path = try LoadingMemoryTests.writeFont(writer)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let bank = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil, samples: .onNeed)
            #expect(try bank.residentBytes == 0 && LoadingMemoryTests.mappings(of: path) == 0)
            let waveform = try #require(waveforms(bank).first)
            #expect(waveform.isDeferred && waveform.bytesPerFrame == bytesPerFrame && waveform.byteCount == 0)
            #expect(bank.programs[0].regionsUnprepared == 1)
            #expect(waveform.channel(0) == (try SoundFontFile.load(path: path).sampleFrames(0)), "read from the file on need")
        }
    }

    /// Read on need, each zone's frames are those the load reads (a waveform read at load may be
    /// cut at its loop's end: the frames it holds).
    @Test(arguments: [DebianFontTests.fluidR3Mono, DebianFontTests.timGM6mb])
    func framesReadOnNeedAreThoseReadAtLoad(_ path: String) throws {
        guard DebianFontTests.installed(path) else { return print("skipped: \(path) is not installed") }
        for selection in [SoundFontSelection.preset(bank: 0, program: 0), .preset(bank: 128, program: 0)] {
            let atLoad = waveforms(try SoundFontBankLoader.load(path: path, selection: selection))
            let onNeed = waveforms(try SoundFontBankLoader.load(path: path, selection: selection, samples: .onNeed))
            try #require(atLoad.count == onNeed.count && !atLoad.isEmpty)
            for (loaded, deferred) in zip(atLoad, onNeed) where deferred.isDeferred {
                let read = deferred.channel(0)
                #expect(loaded.channel(0)[...] == read.prefix(loaded.frameCount) && loaded.sampleRate == deferred.sampleRate)
            }
        }
    }

    @Test func aFontCutShortAfterLoadingGivesOneLineAndSilence() throws {
        let path = try LoadingMemoryTests.writeFont()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loaded = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil, samples: .onNeed)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 64)
        try handle.close()
        let bank = ProgramBank(programs: loaded.programs, names: loaded.names, table: loaded.table)
        let log = Log()
        let store = LevelStore(budget: LevelBudget(limitBytes: 1 << 30), sampleBudget: LevelBudget(limitBytes: 1 << 30))
        let publisher = LevelPublisher.start(bank, store: store, pollMilliseconds: 1, prefetch: false) { _ in } log: { log.add($0) }
        defer { publisher.stop() }
        try #require(log.all.count == 1)
        #expect(log.all[0].hasPrefix("sample data: \(path): sdta/smpl at byte "))
        #expect(log.all[0].contains("sample 0 'Ramp': the file changed since it was loaded"))
        #expect(publisher.startPreparation.unprepared == 1 && store.sampleBudget.usedBytes == 0)
        let sampler = SamplerInstrument(sampleRate: 44_100, maxFrames: 256)
        sampler.submit(bank)
        sampler.handle(.noteOn(channel: 0, note: 60, velocity: 100))
        // The note waits for its frames (0.1 s), which never come.
        let buffer = StereoBuffer(capacity: 256)
        for _ in 0..<20 { sampler.render(into: buffer.block(frames: 256)) }
        #expect(sampler.activeVoiceCount == 0 && bank.programs[0].silentNotes == 1, "silent, and counted")
        #expect(log.all.count == 1)
    }

    /// FluidR3_GM for `play`: its structure, and before the first period the frames of the start
    /// programs only (piano on the melodic parts, the standard kit on part 10): a few MB, not the
    /// 141 MiB a load reads. The sample budget holds what was read.
    @Test func fluidR3ReadsOnlyItsStartProgramsBeforeTheFirstPeriod() throws {
        let path = DebianFontTests.fluidR3
        guard DebianFontTests.installed(path) else { return print("skipped: \(path) is not installed") }
        let loaded = try SoundFontBankLoader.load(path: path, selection: .wholeFont, song: nil, samples: .onNeed)
        #expect(loaded.residentBytes == 0)
        let bank = ProgramBank(programs: loaded.programs, names: loaded.names, table: loaded.table)
        let store = LevelStore(budget: LevelBudget(limitBytes: 0), sampleBudget: LevelBudget(limitBytes: 1 << 30))
        let publisher = LevelPublisher.start(bank, store: store, prefetch: false)
        publisher.stop()
        let read = publisher.startPreparation
        #expect(read.prepared > 50 && read.unprepared == 0)
        #expect(read.bytes == store.sampleBudget.usedBytes && read.bytes > 1 << 20 && read.bytes < 32 << 20, "\(read.bytes) bytes")
        let started = [0, 9].compactMap { channel -> SamplerProgram? in
            guard case .sampler(let index) = bank.startProgram(channel: channel) else { return nil }
            return bank.programs[index]
        }
        #expect(started.count == 2 && started.allSatisfy { $0.regionsUnprepared == 0 })
        #expect(bank.programs.reduce(0) { $0 + $1.regionsUnprepared } > 1_000, "the rest waits for a part to choose it")
    }
}

import AudioFiles
import AudioGraphApp
import AudioTestSupport
import DSP
import Engine
import Foundation
import MIDI
import Sampler
import SamplerLevels
import Testing

/// Real General MIDI songs written by other people (Debian's `openttd-openmsx` and
/// `planetblupi-music-midi`, installed by scripts/install-deps) through the bundled instrument:
/// every channel with notes in the first 30 s is heard when rendered alone, a full render is
/// deterministic and ends within 12 s of the song's last event, and a GM System On ahead of the
/// song undoes whatever was set before it. Speed and peaks are measured by `scripts/render-gm-songs`.
@Suite struct GeneralMIDISongTests {
    static let songs = [
        "/usr/share/games/openttd/baseset/openmsx/tttheme2.mid",
        "/usr/share/games/openttd/baseset/openmsx/mighty_giant_run.mid",
        "/usr/share/planetblupi/music/music002.mid",
    ]
    static let installed = songs.allSatisfy { FileManager.default.fileExists(atPath: $0) }
    let rate = 48000.0
    let excerptSeconds = 30.0
    /// A part is "heard" when its loudest 100 ms window reaches this RMS (quiet but clearly audible).
    let audibleDecibels = -45.0

    func render(
        _ events: [MIDIFileEvent], solo: Int? = nil, levels: SamplerProgram.LevelBuilding = .byNeed, settings: [String] = []
    ) throws -> [Float] {
        var loader = try InstrumentLoader(instrumentPath: OfflineRenderTests.defaultInstrument)
        loader.soloChannel = solo
        loader.assignments = settings
        loader.levels = levels
        // Audibility does not depend on interpolation: the live 4-point kernel keeps this quick.
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256, samplerQuality: .realtime))
        var left: [Float] = []
        _ = try OfflineRenderer(engine: engine, blockFrames: 256).render(midi: events) { b throws(AudioFileError) in
            for i in 0..<b.frames { left.append(max(abs(b.left[i]), abs(b.right[i]))) }
        }
        return left
    }

    func loudestWindowDecibels(_ x: [Float]) -> Double {
        let window = Int(0.1 * rate)
        var best = 0.0
        for start in stride(from: 0, to: max(1, x.count - window), by: window / 2) {
            best = max(best, Measure.rms(x[start..<min(x.count, start + window)]))
        }
        return Decibels.fromGain(best)
    }

    @Test(.enabled(if: installed, "needs openttd-openmsx and planetblupi-music-midi (scripts/install-deps)"), arguments: songs)
    func everyChannelWithNotesIsHeardAlone(song: String) throws {
        let events = try MIDIFile.read(path: song).events.filter { $0.seconds < excerptSeconds }
        var channels = Set<Int>()
        for e in events { if case .noteOn(let c, _, let v) = e.message, v > 0 { channels.insert(Int(c)) } }
        #expect(channels.count >= 4, "a multi-part song")
        for channel in channels.sorted() {
            let level = loudestWindowDecibels(try render(events, solo: channel))
            #expect(level > audibleDecibels, "\((song as NSString).lastPathComponent) channel \(channel + 1) alone: \(level) dBFS")
        }
    }

    @Test(.enabled(if: installed, "needs openttd-openmsx (scripts/install-deps)"))
    func fullRenderIsDeterministic() throws {
        let events = Array(try MIDIFile.read(path: Self.songs[0]).events)
        let a = try render(events), b = try render(events)
        #expect(a.count > Int(60 * rate))
        #expect(a == b)
    }

    /// The pedals are lifted at the last event and the render ends when the sound has died away:
    /// within 12 s of the last event (FluidSynth's renders end 3–10 s after it).
    @Test(.enabled(if: installed, "needs openttd-openmsx and planetblupi-music-midi (scripts/install-deps)"), arguments: songs)
    func theRenderEndsWithin12SecondsOfTheLastEvent(song: String) throws {
        let file = try MIDIFile.read(path: song)
        let out = try render(Array(file.events))
        let tail = Double(out.count) / rate - (file.events.last?.seconds ?? 0)
        #expect(tail < 12, "\((song as NSString).lastPathComponent): the render ends \(tail) s after the last event")
    }

    /// Every channel set somewhere else first (program 50, CC7 10, hard right, expression 30, a
    /// bend, the pedal down on a held note), then GM System On, then the song: from the song's
    /// start the render is the song's own render, within −60 dB.
    @Test(.enabled(if: installed, "needs openttd-openmsx and planetblupi-music-midi (scripts/install-deps)"), arguments: songs)
    func gmSystemOnBeforeTheSongUndoesWhatCameBefore(song: String) throws {
        let offset = 1.5
        let music = try MIDIFile.read(path: song).events.filter { $0.seconds < 15 }
            .map { MIDIFileEvent(seconds: $0.seconds + offset, track: 1, message: $0.message) }
        var dirty: [MIDIFileEvent] = []
        for c in UInt8(0)..<16 {
            for m: MIDIMessage in [
                .programChange(channel: c, program: 50), .controlChange(channel: c, controller: 7, value: 10),
                .controlChange(channel: c, controller: 10, value: 127), .controlChange(channel: c, controller: 11, value: 30),
                .pitchBend(channel: c, value: 3000), .controlChange(channel: c, controller: 64, value: 127),
                .noteOn(channel: c, note: 48, velocity: 90), .noteOff(channel: c, note: 48, velocity: 0),
            ] { dirty.append(MIDIFileEvent(seconds: 0, track: 0, message: m)) }
        }
        dirty.append(MIDIFileEvent(seconds: 1.0, track: 0, message: .system(.reset(.generalMIDI))))
        let settings = ["fx.enabled=off"]
        let reset = try render(dirty + music, settings: settings), clean = try render(music, settings: settings)
        let range = Int(offset * rate)..<Int((offset + 14) * rate)
        let difference = zip(reset[range], clean[range]).map { Double($0 - $1) }
        let relative = Measure.decibels(Measure.rms(difference.map(Float.init))) - Measure.decibels(Measure.rms(clean[range]))
        #expect(relative < -60, "\((song as NSString).lastPathComponent): \(relative) dB from the song alone after the reset")
    }

    /// The renderer builds the levels of exactly what the song plays (`LevelBuildPlan`): the
    /// output is bit for bit that of an instrument with every level built at load, so no note
    /// fell back to the plain 4-point read.
    @Test(.enabled(if: installed, "needs openttd-openmsx and planetblupi-music-midi (scripts/install-deps)"), arguments: songs)
    func levelsBuiltByNeedPlayAsLevelsBuiltAtLoad(song: String) throws {
        let events = try MIDIFile.read(path: song).events.filter { $0.seconds < excerptSeconds }
        let byNeed = try render(events), atLoad = try render(events, levels: .atLoad)
        #expect(byNeed.count > Int(10 * rate))
        // Counted, not compared with ==: Swift Testing would diff two million-sample arrays.
        let differing = zip(byNeed, atLoad).filter { $0 != $1 }.count
        #expect(byNeed.count == atLoad.count && differing == 0, "\(differing) samples differ")
    }
}

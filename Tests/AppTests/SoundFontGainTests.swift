import AudioFiles
import AudioGraphApp
import AudioTestSupport
import Engine
import Foundation
import MIDI
import Testing

/// A SoundFont plays as loud as FluidSynth plays it: a real multi-part General MIDI song through
/// `--soundfont` FluidR3_GM and through `fluidsynth` with everything at its defaults (gain,
/// reverb, chorus on each side) is within 1 dB RMS, and the master limiter never acts. At unity
/// gain (before FluidSynth's 0.2 was followed) ours was 13.3 dB louder here and the limiter took
/// up to 5.6 dB off. The song's first 30 s (`GeneralMIDIBalanceTests.excerpt`), measured to 2 s after.
@Suite struct SoundFontGainTests {
    static let song = "/usr/share/games/openttd/baseset/openmsx/be_sharp_bw_redfarn.mid"
    static let font = GeneralMIDIBalanceTests.font
    static let ready = [song, font, "/usr/bin/fluidsynth"].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    static let rate = 44100.0
    static let excerptSeconds = 30.0
    static let measuredFrames = Int((excerptSeconds + 2) * rate)

    /// RMS of both channels over `measuredFrames`, dB.
    static func level(_ left: [Float], _ right: [Float]) -> Double { Measure.stereoRMSDecibels(left, right, frames: measuredFrames) }

    /// Our render at the defaults: RMS, output peak and the limiter's deepest gain reduction (dB).
    static func ours(_ path: String) throws -> (rms: Double, peak: Double, reduction: Double) {
        var loader = InstrumentLoader(soundFontModule: ())
        loader.soundFontOverride = font
        loader.levels = .byNeed
        let events = Array(try MIDIFile.read(path: path).events)
        loader.song = events.map(\.message)
        let engine = try loader.makeEngine(configuration: EngineConfiguration(sampleRate: rate, maxFrames: 256))
        var left: [Float] = [], right: [Float] = [], reduction = 0.0
        let summary = try OfflineRenderer(engine: engine, blockFrames: 256).render(midi: events) { b throws(AudioFileError) in
            left.append(contentsOf: UnsafeBufferPointer(start: b.left, count: b.frames))
            right.append(contentsOf: UnsafeBufferPointer(start: b.right, count: b.frames))
            reduction = max(reduction, abs(engine.controller.meters.limiterReductionDecibels))
        }
        return (level(left, right), summary.peakDecibels, reduction)
    }

    @Test(.enabled(if: ready, "needs fluidsynth, FluidR3_GM and openttd-openmsx (scripts/install-deps)"))
    func aSongThroughFluidR3IsAsLoudAsFluidSynthAndUnlimited() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let events = try MIDIFile.read(path: Self.song).events.filter { $0.seconds < Self.excerptSeconds }
        let excerpt = scratch.file("excerpt.mid")
        try GeneralMIDIBalanceTests.excerpt(events, channel: nil, path: excerpt)
        let ours = try Self.ours(excerpt)
        // `fluidsynth -ni -F OUT FONT SONG` with its defaults (float output, so nothing is clipped).
        let theirs = try GeneralMIDIBalanceTests.fluidSynth(excerpt, scratch: scratch, settings: [], frames: Self.measuredFrames)
        print(String(format: "RMS: AudioGraph %.2f dB, FluidSynth %.2f dB; our peak %.2f dBFS, limiter reduction %.2f dB",
                     ours.rms, theirs, ours.peak, ours.reduction))
        #expect(abs(ours.rms - theirs) <= 1, "AudioGraph \(ours.rms) dB RMS, FluidSynth \(theirs) dB")
        #expect(ours.reduction == 0, "the limiter took \(ours.reduction) dB off")
        #expect(ours.peak < -0.1, "peak \(ours.peak) dBFS reaches the limiter's ceiling")
    }
}

import Benchmarks
import Testing
import MicEffects

/// The benchmark runs and its quality figures hold (speed is reported, never asserted in tests).
@Suite struct BenchmarkSmokeTests {
    @Test func everyEffectIsMeasured() {
        let rows = MicEffectsBenchmark.run(seconds: 0.2)
        #expect(rows.count == MicEffectKind.allCases.count + 1)
        for row in rows { #expect(row.shareOf64FrameBlock > 0 && row.shareOf64FrameBlock.isFinite) }
        for row in rows { print("BENCH", row.effect, row.shareOf64FrameBlock) }
    }

    @Test(arguments: [7.0, -5.0])
    func phaseLockedShifterIsAtLeastAsCleanAsTheClassic(semitones: Double) {
        let figures = MicEffectsBenchmark.comparePitchShifters(semitones: semitones, seconds: 2)
        let (ours, classic) = (figures[0], figures[2])  // ours as the chain runs it (overlap 8)
        for f in figures { print("BENCH", f.name, f.realTimeFactor, f.pitchErrorCents, f.harmonicToResidualDecibels) }
        #expect(abs(ours.pitchErrorCents) < 2)
        #expect(ours.harmonicToResidualDecibels >= classic.harmonicToResidualDecibels)
    }
}

import AudioTestSupport
import MIDI
import Sampler
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Levels against the DLS concave curve, written out here independently of the implementation:
/// gain(v) = 40·log10(v/127) dB (DLS2 concave transform, inverted, scaled by −96 dB).
@Suite struct VelocityAndControllerTests {
    let levelToleranceDecibels = 0.5

    func dlsConcaveDecibels(_ value: Double) -> Double { 40 * log10(value / 127) }

    /// Steady level (dB) of the constant waveform after the attack has settled.
    func steadyLevelDecibels(events: [At], layer: SamplerLayer = plainLayer()) throws -> Double {
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: layer)
        let out = render(instrument(playing: program), frames: 9_600, events: events)
        return Measure.decibels(Double(out.left[9_000]))
    }

    @Test(arguments: [64, 32])
    func velocityFollowsTheConcaveCurve(velocity: Int) throws {
        let full = try steadyLevelDecibels(events: [At(0, noteOn(60, 127))])
        let softer = try steadyLevelDecibels(events: [At(0, noteOn(60, velocity))])
        #expect(abs((softer - full) - dlsConcaveDecibels(Double(velocity))) < levelToleranceDecibels)
    }

    @Test func fullVelocityIsUnityGainAtCentrePan() throws {
        let full = try steadyLevelDecibels(events: [At(0, noteOn(60, 127))])
        #expect(abs(full - Measure.decibels(Double(centrePanGain))) < 0.01)
    }

    @Test func linearCurveIsTwentyLog() throws {
        var layer = plainLayer()
        layer.velocityCurve = .linear
        let full = try steadyLevelDecibels(events: [At(0, noteOn(60, 127))], layer: layer)
        let half = try steadyLevelDecibels(events: [At(0, noteOn(60, 64))], layer: layer)
        #expect(abs((half - full) - 20 * log10(64.0 / 127)) < levelToleranceDecibels)
    }

    @Test(arguments: [(MIDIController.volume, 64), (MIDIController.expression, 32)])
    func volumeAndExpressionFollowTheConcaveCurve(controller: UInt8, value: Int) throws {
        let full = try steadyLevelDecibels(events: [At(0, noteOn(60))])
        let reduced = try steadyLevelDecibels(events: [At(0, noteOn(60)), At(100, controlChange(controller, value))])
        #expect(abs((reduced - full) - dlsConcaveDecibels(Double(value))) < levelToleranceDecibels)
    }

    @Test func controllerJumpDoesNotStep() throws {
        let program = SamplerProgram.single(.sineCycle(frequencyHz: 220), rootKey: 57, layer: plainLayer())
        let out = render(instrument(playing: program), frames: 9_600, events: [
            At(0, noteOn(57)), At(4_800, controlChange(MIDIController.volume, 0)),
        ])
        Measure.expectNoClick(Array(out.left[2_400...]))
        #expect(Measure.peak(Array(out.left[9_000...])) < 1e-4)
    }

    @Test func panHardLeftSilencesTheRight() throws {
        let program = SamplerProgram.single(try constantWaveform(), rootKey: 60, layer: plainLayer())
        let out = render(instrument(playing: program), frames: 9_600, events: [
            At(0, controlChange(MIDIController.pan, 0)), At(0, noteOn(60)),
        ])
        #expect(abs(out.left[9_000] - 1) < 1e-3)
        #expect(abs(out.right[9_000]) < 1e-3)
    }
}

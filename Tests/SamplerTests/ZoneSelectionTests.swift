import AudioTestSupport
import Sampler
import Testing

/// Which zones sound: key splits, velocity splits, layers with key offsets, disabled zones.
@Suite struct ZoneSelectionTests {
    /// Four sine zones at distinct frequencies; which ones sound is read from the spectrum.
    let lowKeys = 220.0, highKeys = 330.0, soft = 550.0, loud = 770.0
    let present = 0.05, absent = 1e-3

    func zone(_ frequency: Double, keys: ClosedRange<Int>, velocities: ClosedRange<Int> = 1...127, layer: Int = 0) -> SamplerZone {
        // Root key 69 with pitch tracking off: every zone sounds at its own frequency.
        var zone = SamplerZone(waveform: .sineCycle(frequencyHz: frequency), layerIndex: layer, rootKey: 69)
        zone.pitchTracking = false
        zone.minKey = keys.lowerBound
        zone.maxKey = keys.upperBound
        zone.minVelocity = velocities.lowerBound
        zone.maxVelocity = velocities.upperBound
        return zone
    }

    func levels(_ program: SamplerProgram, key: Int, velocity: Int = 127, frequencies: [Double]) -> [Double] {
        let out = render(instrument(playing: program), frames: 24_000, events: [At(0, noteOn(key, velocity))])
        let tail = Array(out.left[4_800...])
        return frequencies.map { Measure.amplitude(tail, at: $0, sampleRate: testSampleRate) }
    }

    @Test func keySplitPicksOneZone() throws {
        let program = try SamplerProgram(layers: [plainLayer()], zones: [
            zone(lowKeys, keys: 0...59), zone(highKeys, keys: 60...127),
        ])
        let below = levels(program, key: 59, frequencies: [lowKeys, highKeys])
        let above = levels(program, key: 60, frequencies: [lowKeys, highKeys])
        #expect(below[0] > present && below[1] < absent)
        #expect(above[0] < absent && above[1] > present)
    }

    @Test func velocitySplitPicksOneZone() throws {
        let program = try SamplerProgram(layers: [plainLayer()], zones: [
            zone(soft, keys: 0...127, velocities: 1...80), zone(loud, keys: 0...127, velocities: 81...127),
        ])
        let gentle = levels(program, key: 60, velocity: 80, frequencies: [soft, loud])
        let hard = levels(program, key: 60, velocity: 81, frequencies: [soft, loud])
        #expect(gentle[0] > present && gentle[1] < absent)
        #expect(hard[0] < absent && hard[1] > present)
    }

    @Test func twoLayersBothSound() throws {
        var second = plainLayer()
        second.gainDecibels = -6
        let program = try SamplerProgram(layers: [plainLayer(), second], zones: [
            zone(lowKeys, keys: 0...127, layer: 0), zone(loud, keys: 0...127, layer: 1),
        ])
        let both = levels(program, key: 64, frequencies: [lowKeys, loud])
        #expect(both[0] > present && both[1] > present)
        #expect(abs(Measure.decibels(both[1] / both[0]) - -6) < 0.2)
    }

    @Test func layerKeyOffsetShiftsZoneLookup() throws {
        var shifted = plainLayer()
        shifted.keyOffset = 12
        let program = try SamplerProgram(layers: [shifted], zones: [
            zone(lowKeys, keys: 0...59), zone(highKeys, keys: 60...127),
        ])
        // Key 50 + 12 = 62 lands in the upper zone.
        let result = levels(program, key: 50, frequencies: [lowKeys, highKeys])
        #expect(result[0] < absent && result[1] > present)
    }

    @Test func disabledZonesAreSilent() throws {
        var off = zone(highKeys, keys: 0...127)
        off.isEnabled = false
        let program = try SamplerProgram(layers: [plainLayer()], zones: [zone(lowKeys, keys: 0...127), off])
        let result = levels(program, key: 60, frequencies: [lowKeys, highKeys])
        #expect(result[0] > present && result[1] < absent)
    }

    @Test func invalidZoneIsAnError() throws {
        var bad = zone(lowKeys, keys: 0...127)
        bad.layerIndex = 3
        #expect(throws: SamplerProgramError.self) { try SamplerProgram(layers: [plainLayer()], zones: [bad]) }
    }
}

import Presets
import Testing

@Suite("Connection codes")
struct ConnectionCodesTests {
    @Test func sourceCodesDecodeAndRoundTrip() {
        let cases: [(Int, ModulationSource)] = [
            (0, .constant), (1, .controller(1)), (74, .controller(74)), (224, .pitchBend), (241, .pitchBendRange),
            (242, .fineTuning), (300, .key), (301, .velocity), (0x1000_0000, .lfo(layerID: 0, index: 0)),
            (0x1000_0201, .lfo(layerID: 2, index: 1)), (0x2000_0100, .envelope(layerID: 1, index: 0)),
            (310, .unknown(310)), (0x1001_0000, .unknown(0x1001_0000)),
        ]
        for (code, source) in cases {
            #expect(ModulationSource(code: code) == source, "code \(code)")
            #expect(source.code == code)
        }
    }

    @Test func destinationCodesIgnoreTheLayerBits() {
        #expect(ModulationDestination(code: 816_840_704) == .pitch)
        #expect(ModulationDestination(code: 0x30B0_0100) == .pitch)
        #expect(ModulationDestination.layerID(ofCode: 0x30B0_0100) == 1)
        #expect(ModulationDestination(code: 1_343_225_856) == .ampGain)
        #expect(ModulationDestination(code: 1_344_274_432) == .pan)
        #expect(ModulationDestination(code: 1_095_761_920) == .filterCutoff)
        #expect(ModulationDestination(code: 1_096_810_496) == .filterResonance)
        #expect(ModulationDestination(code: 0x2200_0000) == .unknown(0x2200_0000))
        #expect(ModulationDestination(code: 0x30B0_0001) == .unknown(0x30B0_0001))
        #expect(ModulationDestination.filterCutoff.code(layerID: 3) == 0x4150_0300)
    }

    @Test func dlsDefaultsMatchAULabsStoredDefaultsForTheLayer() {
        let defaults = Connection.dlsDefaults(layerID: 1)
        #expect(defaults.map(\.id) == Array(0...7))
        #expect(defaults.allSatisfy { $0.enabled && $0.destinationLayerID == 1 })
        let summary = defaults.map {
            "\($0.source) \($0.control) \($0.destination) \($0.transform) \($0.inverse) \($0.outputRange)"
        }
        #expect(
            summary == [
                "key constant pitch linear false (atZero: 0.0, atOne: 12800.0)",
                "velocity constant ampGain concave true (atZero: 0.0, atOne: -96.0)",
                "controller(7) constant ampGain concave true (atZero: 0.0, atOne: -96.0)",
                "controller(11) constant ampGain concave true (atZero: 0.0, atOne: -96.0)",
                "controller(10) constant pan linear false (atZero: -0.508, atOne: 0.508)",
                "envelope(layerID: 1, index: 0) constant ampGain linear true (atZero: 0.0, atOne: -96.0)",
                "lfo(layerID: 1, index: 0) controller(1) pitch linear false (atZero: -50.0, atOne: 50.0)",
                "pitchBend pitchBendRange pitch linear false (atZero: -12800.0, atOne: 12800.0)",
            ])
        #expect(defaults[0].destinationCode == 0x30B0_0100)
        #expect(defaults[5].sourceCode == 0x2000_0100)
    }

    @Test func outputRangePrefersMinMaxThenBipolarScale() {
        var connection = Connection(id: 0, source: .controller(1), destination: .pitch, layerID: 0, scale: 100)
        #expect(connection.outputRange == (0, 100))
        connection.bipolar = true
        #expect(connection.outputRange == (-100, 100))
        connection.minValue = -5
        connection.maxValue = 7
        #expect(connection.outputRange == (-5, 7))
        connection = Connection(id: 0, source: .controller(1), destination: .pitch, layerID: 0)
        #expect(connection.outputRange == (0, 0))
    }
}

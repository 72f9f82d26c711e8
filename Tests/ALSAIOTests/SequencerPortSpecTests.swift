import ALSAIO
import Testing

@Suite struct SequencerPortSpecTests {
    static let readable = SequencerPortCapability.read | SequencerPortCapability.subscribeRead
    static let writable = SequencerPortCapability.write | SequencerPortCapability.subscribeWrite
    static let ports = [
        SequencerPortInfo(client: 14, clientName: "Midi Through", port: 0, portName: "Midi Through Port-0",
            capabilities: readable | writable, types: SequencerPortType.midiGeneric),
        SequencerPortInfo(client: 24, clientName: "Virtual Raw MIDI 2-0", port: 0, portName: "VirMIDI 2-0",
            capabilities: readable | writable, types: SequencerPortType.midiGeneric),
        SequencerPortInfo(client: 25, clientName: "Virtual Raw MIDI 2-1", port: 0, portName: "VirMIDI 2-1",
            capabilities: readable | writable, types: SequencerPortType.midiGeneric),
        SequencerPortInfo(client: 128, clientName: "AudioGraph", port: 0, portName: "MIDI In",
            capabilities: writable, types: SequencerPortType.midiGeneric | SequencerPortType.application),
        SequencerPortInfo(client: 128, clientName: "AudioGraph", port: 1, portName: "announcements",
            capabilities: SequencerPortCapability.write | SequencerPortCapability.noExport, types: SequencerPortType.application),
        SequencerPortInfo(client: 130, clientName: "rtpmidid", port: 1, portName: "iPad Pro",
            capabilities: readable | writable, types: SequencerPortType.midiGeneric),
        SequencerPortInfo(client: 130, clientName: "rtpmidid", port: 2, portName: "Studio Mac",
            capabilities: readable | writable, types: SequencerPortType.midiGeneric),
    ]

    func resolve(_ text: String, _ usable: (SequencerPortInfo) -> Bool = { _ in true }) throws -> SequencerAddress {
        try SequencerPortSpec(parsing: text).resolve(in: Self.ports, where: usable).address
    }

    @Test func parsesNumbersAndNames() throws {
        #expect(try SequencerPortSpec(parsing: "128:0").clientPart == .number(128))
        #expect(try SequencerPortSpec(parsing: "128:0").portPart == .number(0))
        #expect(try SequencerPortSpec(parsing: " AudioGraph:MIDI In ").clientPart == .name("AudioGraph"))
        #expect(try SequencerPortSpec(parsing: "AudioGraph:MIDI In").portPart == .name("MIDI In"))
        #expect(try SequencerPortSpec(parsing: "24").portPart == nil)
        #expect(throws: ALSAError.self) { try SequencerPortSpec(parsing: "  ") }
        #expect(throws: ALSAError.self) { try SequencerPortSpec(parsing: "AudioGraph:") }
        #expect(throws: ALSAError.self) { try SequencerPortSpec(parsing: ":0") }
    }

    @Test func resolvesLikeAconnect() throws {
        #expect(try resolve("24:0") == SequencerAddress(client: 24, port: 0))
        #expect(try resolve("25") == SequencerAddress(client: 25, port: 0))
        #expect(try resolve("AudioGraph:MIDI In") == SequencerAddress(client: 128, port: 0))
        #expect(try resolve("audiograph:0") == SequencerAddress(client: 128, port: 0))
        #expect(try resolve("virtual raw midi 2-1") == SequencerAddress(client: 25, port: 0))
        #expect(try resolve("ipad") == SequencerAddress(client: 130, port: 1))  // port name, substring
        #expect(try resolve("rtpmidid:studio") == SequencerAddress(client: 130, port: 2))
        #expect(try resolve("rtpmidid") == SequencerAddress(client: 130, port: 1))  // lowest port of the client
    }

    @Test func exactNameBeatsSubstring() throws {
        var ports = Self.ports
        ports.append(SequencerPortInfo(client: 131, clientName: "AudioGraph Extra", port: 0, portName: "MIDI In",
            capabilities: Self.writable, types: SequencerPortType.midiGeneric))
        #expect(try SequencerPortSpec(parsing: "AudioGraph").resolve(in: ports, where: { _ in true }).client == 128)
    }

    @Test func ambiguousAndMissingNamesAreErrorsThatNameTheCandidates() {
        #expect {
            try resolve("VirMIDI")
        } throws: { error in
            let text = (error as? ALSAError)?.description ?? ""
            return text.contains("ambiguous") && text.contains("24:0") && text.contains("25:0")
        }
        #expect {
            try resolve("Keystation")
        } throws: { error in
            ((error as? ALSAError)?.description ?? "").contains("no such port")
        }
    }

    @Test func capabilityFilterAndHiddenPortsApply() throws {
        #expect(throws: ALSAError.self) { try resolve("AudioGraph", \.isReadableSource) }
        #expect(throws: ALSAError.self) { try resolve("announcements") }  // NO_EXPORT is never addressable
        #expect(try resolve("AudioGraph", \.isWritableDestination) == SequencerAddress(client: 128, port: 0))
    }
}

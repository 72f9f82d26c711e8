import ALSAIO
import Testing

@Suite struct AutoconnectPolicyTests {
    static let readable = SequencerPortCapability.read | SequencerPortCapability.subscribeRead
    static let duplex = readable | SequencerPortCapability.write | SequencerPortCapability.subscribeWrite
    static let ownClient = 128

    func port(_ client: Int, _ clientName: String, _ portName: String, caps: UInt32 = duplex,
              types: UInt32 = SequencerPortType.midiGeneric) -> SequencerPortInfo {
        SequencerPortInfo(client: client, clientName: clientName, port: 0, portName: portName, capabilities: caps, types: types)
    }

    @Test func defaultPolicyTakesMIDISourcesIncludingRtpmididSessions() {
        let policy = AutoconnectPolicy()
        // rtpmidid session ports: MIDI_GENERIC only, no HARDWARE/APPLICATION bit.
        #expect(policy.accepts(port(130, "rtpmidid", "iPad Pro"), ownClient: Self.ownClient))
        #expect(policy.accepts(port(24, "Virtual Raw MIDI 2-0", "VirMIDI 2-0",
            types: SequencerPortType.midiGeneric | SequencerPortType.software | SequencerPortType.port), ownClient: Self.ownClient))
        #expect(policy.accepts(port(20, "Keystation 49", "Keystation 49 MIDI 1",
            types: SequencerPortType.midiGeneric | SequencerPortType.hardware | SequencerPortType.port), ownClient: Self.ownClient))
    }

    @Test func defaultPolicyRejectsWhatWouldLoopOrDuplicate() {
        let policy = AutoconnectPolicy()
        #expect(!policy.accepts(port(14, "Midi Through", "Midi Through Port-0"), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(130, "rtpmidid", "Network"), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(130, "rtpmidid", "Announcements", caps: Self.duplex | SequencerPortCapability.noExport),
            ownClient: Self.ownClient))
        #expect(!policy.accepts(port(131, "other", "Announcements"), ownClient: Self.ownClient))  // by name too
        #expect(!policy.accepts(port(129, "bridge", "hidden", caps: Self.duplex | SequencerPortCapability.noExport),
            ownClient: Self.ownClient))
        #expect(!policy.accepts(port(Self.ownClient, "AudioGraph", "MIDI Out"), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(0, "System", "Announce", caps: Self.readable, types: 0), ownClient: Self.ownClient))
    }

    @Test func rejectsPortsThatCannotBeSubscribedOrAreNotMIDI() {
        let policy = AutoconnectPolicy()
        #expect(!policy.accepts(port(129, "aseqdump", "aseqdump", caps: SequencerPortCapability.write | SequencerPortCapability.subscribeWrite),
            ownClient: Self.ownClient))
        #expect(!policy.accepts(port(129, "reader-only", "out", caps: SequencerPortCapability.read), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(129, "timer", "ticks", types: SequencerPortType.application), ownClient: Self.ownClient))
    }

    @Test func includeAndExcludePatternsAreCaseInsensitiveSubstrings() {
        let policy = AutoconnectPolicy(includePatterns: ["rtpmidid", "keystation"], excludePatterns: ["studio mac"])
        #expect(policy.accepts(port(130, "rtpmidid", "iPad Pro"), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(130, "rtpmidid", "Studio Mac"), ownClient: Self.ownClient))
        #expect(policy.accepts(port(20, "Keystation 49", "Keystation 49 MIDI 1"), ownClient: Self.ownClient))
        #expect(!policy.accepts(port(24, "Virtual Raw MIDI 2-0", "VirMIDI 2-0"), ownClient: Self.ownClient))
    }
}

import ALSAIO
import Testing

/// The ports below are shaped like the real ones: rtpmidid's (`aseq_t::create_port`: READ|WRITE|
/// SUBS_READ|SUBS_WRITE, type MIDI_GENERIC only, `Announcements` with NO_EXPORT, session and
/// discovered-remote ports named by the remote), the kernel's Midi Through and VirMIDI clients,
/// a USB keyboard.
@Suite struct AutoconnectPolicyTests {
    static let readable = SequencerPortCapability.read | SequencerPortCapability.subscribeRead
    static let duplex = readable | SequencerPortCapability.write | SequencerPortCapability.subscribeWrite
    static let ownClient = 128

    static func port(_ client: Int, _ clientName: String, _ port: Int, _ portName: String, caps: UInt32 = duplex,
                     types: UInt32 = SequencerPortType.midiGeneric, kernel: Bool = false) -> SequencerPortInfo {
        SequencerPortInfo(client: client, clientName: clientName, port: port, portName: portName, capabilities: caps,
                          types: types, isKernelClient: kernel)
    }

    static let system = port(0, "System", 1, "Announce", caps: readable, types: 0, kernel: true)
    static let midiThrough = port(14, "Midi Through", 0, "Midi Through Port-0",
                                  types: SequencerPortType.midiGeneric | SequencerPortType.software | SequencerPortType.port,
                                  kernel: true)
    static let virMIDI = port(24, "Virtual Raw MIDI 2-0", 0, "VirMIDI 2-0",
                              types: SequencerPortType.midiGeneric | SequencerPortType.software | SequencerPortType.port,
                              kernel: true)
    static let keyboard = port(20, "Keystation 49", 0, "Keystation 49 MIDI 1",
                               types: SequencerPortType.midiGeneric | SequencerPortType.hardware | SequencerPortType.port,
                               kernel: true)
    static let own = port(ownClient, "AudioGraph", 0, "MIDI In",
                          caps: SequencerPortCapability.write | SequencerPortCapability.subscribeWrite,
                          types: SequencerPortType.midiGeneric | SequencerPortType.application)
    // rtpmidid, client 130.
    static let announcements = port(130, "rtpmidid", 0, "Announcements", caps: duplex | SequencerPortCapability.noExport)
    static let networkExport = port(130, "rtpmidid", 1, "Network Export")
    static let studioMac = port(130, "rtpmidid", 2, "Studio Mac")  // a remote rtpmidid only discovered
    static let throughSession = port(130, "rtpmidid", 3, "Midi Through-Midi Through Port-0")
    static let networkSession = port(130, "rtpmidid", 4, "Network iPad")
    static let all = [system, midiThrough, keyboard, virMIDI, own, announcements, networkExport, studioMac, throughSession,
                      networkSession]

    func decision(_ policy: AutoconnectPolicy, _ port: SequencerPortInfo, among all: [SequencerPortInfo] = Self.all)
        -> AutoconnectDecision?
    {
        policy.decide(port, among: all, ownClient: Self.ownClient)
    }

    func taken(_ policy: AutoconnectPolicy, among all: [SequencerPortInfo] = Self.all) -> [String] {
        all.filter { decision(policy, $0, among: all)?.take == true }.map { "\($0.clientName):\($0.portName)" }
    }

    @Test func defaultTakesLocalSourcesOnly() {
        #expect(taken(AutoconnectPolicy()) == ["Keystation 49:Keystation 49 MIDI 1", "Virtual Raw MIDI 2-0:VirMIDI 2-0"])
        #expect(decision(AutoconnectPolicy(), Self.keyboard)?.description
                == "take 20:0 'Keystation 49:Keystation 49 MIDI 1' (hardware MIDI port)")
        #expect(decision(AutoconnectPolicy(), Self.virMIDI)?.description
                == "take 24:0 'Virtual Raw MIDI 2-0:VirMIDI 2-0' (local MIDI source)")
    }

    @Test func everySkipSaysWhy() {
        let policy = AutoconnectPolicy()
        #expect(Self.all.compactMap { decision(policy, $0) }.filter { !$0.take }.count == 7)
        #expect(decision(policy, Self.midiThrough)?.description
                == "skip 14:0 'Midi Through:Midi Through Port-0' (kernel Midi Through client: echoes what others send)")
        #expect(decision(policy, Self.announcements)?.reason == .rtpmididPrivate)
        #expect(decision(policy, Self.networkExport)?.reason == .rtpmididExport)
        #expect(decision(policy, Self.studioMac)?.reason == .networkPeer)
        #expect(decision(policy, Self.throughSession)?.reason == .networkPeer)
        #expect(decision(policy, Self.networkSession)?.reason == .networkPeer)
        #expect(decision(policy, Self.system)?.reason == .systemClient)
        #expect(decision(policy, Self.own) == nil)  // write-only: not a source, no line
        #expect(decision(policy, Self.port(Self.ownClient, "AudioGraph", 1, "echo"))?.reason == .ownClient)
    }

    /// The bug of issue 14: "Midi Through" and "Network" were substrings of the whole name.
    @Test func remoteChosenNamesNeverExcludeASession() throws {
        let policy = AutoconnectPolicy(includes: [try AutoconnectPattern(parsing: "rtpmidid")])
        #expect(decision(policy, Self.throughSession)?.description
                == "take 130:3 'rtpmidid:Midi Through-Midi Through Port-0' (included by 'rtpmidid')")
        #expect(decision(policy, Self.networkSession)?.take == true)
        // A user client that merely calls itself "Midi Through" is not the kernel's.
        #expect(decision(AutoconnectPolicy(), Self.port(131, "Midi Through", 0, "Midi Through Port-0"))?.reason == .localSource)
        // Whole-client include still leaves rtpmidid's own ports alone.
        #expect(decision(policy, Self.networkExport)?.reason == .rtpmididExport)
        #expect(decision(policy, Self.announcements)?.reason == .rtpmididPrivate)
        #expect(taken(policy) == ["Keystation 49:Keystation 49 MIDI 1", "Virtual Raw MIDI 2-0:VirMIDI 2-0",
                                  "rtpmidid:Studio Mac", "rtpmidid:Midi Through-Midi Through Port-0", "rtpmidid:Network iPad"])
    }

    @Test func aDiscoveredRemoteIsTakenOnlyWhenNamed() throws {
        let policy = try AutoconnectPolicy(including: ["rtpmidid:Midi Through-Midi Through Port-0"], excluding: [])
        #expect(taken(policy) == ["Keystation 49:Keystation 49 MIDI 1", "Virtual Raw MIDI 2-0:VirMIDI 2-0",
                                  "rtpmidid:Midi Through-Midi Through Port-0"])
        #expect(decision(policy, Self.studioMac)?.reason == .networkPeer)
        let mac = try AutoconnectPolicy(including: ["rtpmidid:Studio Mac"], excluding: [])
        #expect(decision(mac, Self.studioMac)?.take == true)
        #expect(decision(mac, Self.throughSession)?.take == false)
        // Exact, case and all: neither a prefix nor another case names it.
        #expect(try decision(AutoconnectPolicy(including: ["rtpmidid:Studio"], excluding: []), Self.studioMac)?.take == false)
        #expect(try decision(AutoconnectPolicy(including: ["rtpmidid:studio mac"], excluding: []), Self.studioMac)?.take == false)
        #expect(try decision(AutoconnectPolicy(including: ["rtpmid"], excluding: []), Self.studioMac)?.take == false)
    }

    @Test func rtpmididIsRecognisedByItsPrivatePortWhateverItsName() {
        let renamedAnnouncements = Self.port(140, "WiFi MIDI", 0, "Announcements", caps: Self.duplex | SequencerPortCapability.noExport)
        let renamedSession = Self.port(140, "WiFi MIDI", 1, "iPad")
        let ports = [renamedAnnouncements, renamedSession]
        #expect(decision(AutoconnectPolicy(), renamedSession, among: ports)?.reason == .networkPeer)
        // A remote naming its session "Announcements" cannot set NO_EXPORT: not a fingerprint.
        let impostor = [Self.port(141, "some app", 0, "Announcements"), Self.port(141, "some app", 1, "out")]
        #expect(decision(AutoconnectPolicy(), impostor[1], among: impostor)?.reason == .localSource)
        // Several instances: rtpmidid-A, rtpmidid-B.
        #expect(decision(AutoconnectPolicy(), Self.port(150, "rtpmidid-A", 3, "Midi Through-Midi Through Port-0"))?.reason
                == .networkPeer)
    }

    @Test func exportPortIsTakenOnlyWhenNamedExactly() throws {
        let legacy = Self.port(130, "rtpmidid", 5, "Network")
        #expect(decision(AutoconnectPolicy(), legacy)?.reason == .rtpmididExport)
        #expect(try decision(AutoconnectPolicy(including: ["rtpmidid:Network Export"], excluding: []), Self.networkExport)?.take == true)
        #expect(try decision(AutoconnectPolicy(including: ["130:1"], excluding: []), Self.networkExport)?.take == true)
        #expect(try decision(AutoconnectPolicy(including: ["130"], excluding: []), Self.networkExport)?.take == false)
    }

    @Test func includeTakesMidiThroughAndExcludeWins() throws {
        #expect(try decision(AutoconnectPolicy(including: ["Midi Through"], excluding: []), Self.midiThrough)?.take == true)
        #expect(try decision(AutoconnectPolicy(including: ["14:0"], excluding: []), Self.midiThrough)?.take == true)
        let both = try AutoconnectPolicy(including: ["rtpmidid"], excluding: ["rtpmidid:Studio Mac", "24"])
        #expect(decision(both, Self.studioMac)?.description == "skip 130:2 'rtpmidid:Studio Mac' (excluded by 'rtpmidid:Studio Mac')")
        #expect(decision(both, Self.virMIDI)?.take == false)
        #expect(decision(both, Self.throughSession)?.take == true)
        // Includes never override what is not a MIDI source or is hidden.
        #expect(try decision(AutoconnectPolicy(including: ["rtpmidid:Announcements"], excluding: []), Self.announcements)?.take == false)
        #expect(try decision(AutoconnectPolicy(including: ["0"], excluding: []), Self.system)?.take == false)
    }

    @Test func rejectsPortsThatCannotBeSubscribedOrAreNotMIDI() {
        let policy = AutoconnectPolicy()
        #expect(decision(policy, Self.port(129, "aseqdump", 0, "aseqdump",
                                           caps: SequencerPortCapability.write | SequencerPortCapability.subscribeWrite)) == nil)
        #expect(decision(policy, Self.port(129, "audiograph-send", 0, "out", caps: SequencerPortCapability.read)) == nil)
        #expect(decision(policy, Self.port(129, "timer", 0, "ticks", types: SequencerPortType.application))?.reason == .notMIDI)
        #expect(decision(policy, Self.port(129, "bridge", 0, "hidden", caps: Self.duplex | SequencerPortCapability.noExport))?.reason
                == .notExported)
    }

    @Test func patternSyntax() throws {
        for bad in ["", " rtpmidid", "rtpmidid "] {
            #expect(throws: ALSAError.self) { try AutoconnectPattern(parsing: bad) }
        }
        let numbered = try AutoconnectPattern(parsing: "130:3")
        #expect(numbered.match(Self.throughSession) == .port)
        #expect(numbered.match(Self.studioMac) == nil)
        #expect(try AutoconnectPattern(parsing: "130").match(Self.studioMac) == .client)
        #expect(try AutoconnectPattern(parsing: "rtpmidid").match(Self.studioMac) == .client)
        // A name with a colon in it is compared whole.
        let colon = Self.port(130, "rtpmidid", 6, "Ana's iPad: Live")
        #expect(try AutoconnectPattern(parsing: "rtpmidid:Ana's iPad: Live").match(colon) == .port)
        #expect(try AutoconnectPattern(parsing: "rtpmidid:Ana's iPad").match(colon) == nil)
    }
}

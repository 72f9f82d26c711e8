/// A sequencer port address, `client:port` as `aconnect` prints it.
import MemberwiseInit

@PublicInit
public struct SequencerAddress: Hashable, Sendable, CustomStringConvertible {
    public var client: UInt8
    public var port: UInt8

    public var description: String { "\(client):\(port)" }
}

/// Port capability bits (`SND_SEQ_PORT_CAP_*`, kernel ABI values).
public enum SequencerPortCapability {
    public static let read: UInt32 = 1 << 0
    public static let write: UInt32 = 1 << 1
    public static let syncRead: UInt32 = 1 << 2
    public static let syncWrite: UInt32 = 1 << 3
    public static let duplex: UInt32 = 1 << 4
    public static let subscribeRead: UInt32 = 1 << 5
    public static let subscribeWrite: UInt32 = 1 << 6
    public static let noExport: UInt32 = 1 << 7

    static let words: [(UInt32, String)] = [
        (read, "read"), (write, "write"), (syncRead, "sync-read"), (syncWrite, "sync-write"),
        (duplex, "duplex"), (subscribeRead, "subs-read"), (subscribeWrite, "subs-write"),
        (noExport, "no-export"),
    ]
}

/// Port type bits (`SND_SEQ_PORT_TYPE_*`, kernel ABI values).
public enum SequencerPortType {
    public static let specific: UInt32 = 1 << 0
    public static let midiGeneric: UInt32 = 1 << 1
    public static let midiGM: UInt32 = 1 << 2
    public static let midiGS: UInt32 = 1 << 3
    public static let midiXG: UInt32 = 1 << 4
    public static let midiMT32: UInt32 = 1 << 5
    public static let midiGM2: UInt32 = 1 << 6
    public static let synth: UInt32 = 1 << 10
    public static let hardware: UInt32 = 1 << 16
    public static let software: UInt32 = 1 << 17
    public static let synthesizer: UInt32 = 1 << 18
    public static let port: UInt32 = 1 << 19
    public static let application: UInt32 = 1 << 20
    /// Any of the MIDI protocol bits: what makes a port "a MIDI port".
    public static let anyMIDI: UInt32 = midiGeneric | midiGM | midiGS | midiXG | midiMT32 | midiGM2

    static let words: [(UInt32, String)] = [
        (specific, "specific"), (midiGeneric, "midi-generic"), (midiGM, "midi-gm"), (midiGS, "midi-gs"),
        (midiXG, "midi-xg"), (midiMT32, "midi-mt32"), (midiGM2, "midi-gm2"), (synth, "synth"),
        (hardware, "hardware"), (software, "software"), (synthesizer, "synthesizer"), (port, "port"),
        (application, "application"),
    ]
}

/// One sequencer port as `aconnect -l` would list it. Plain value (tests build these by hand).
@PublicInit
public struct SequencerPortInfo: Sendable, Equatable, CustomStringConvertible {
    public var client: Int
    public var clientName: String
    public var port: Int
    public var portName: String
    /// `SequencerPortCapability` bits.
    public var capabilities: UInt32
    /// `SequencerPortType` bits.
    public var types: UInt32
    /// The client is part of the kernel (a card's MIDI ports, Midi Through), not a program.
    public var isKernelClient: Bool = false

    public var address: SequencerAddress {
        SequencerAddress(client: UInt8(truncatingIfNeeded: client), port: UInt8(truncatingIfNeeded: port))
    }

    /// Others may subscribe to its output (READ and SUBS_READ): a MIDI source we can connect from.
    public var isReadableSource: Bool {
        let both = SequencerPortCapability.read | SequencerPortCapability.subscribeRead
        return capabilities & both == both
    }

    /// Events may be sent to it directly (WRITE).
    public var isWritableDestination: Bool { capabilities & SequencerPortCapability.write != 0 }

    /// False for ports marked NO_EXPORT (internal ports such as rtpmidid's `Announcements`).
    public var isExported: Bool { capabilities & SequencerPortCapability.noExport == 0 }

    /// Speaks MIDI (any MIDI protocol type bit).
    public var isMIDI: Bool { types & SequencerPortType.anyMIDI != 0 }

    /// A port of snd-seq-dummy's client: a kernel client named exactly `Midi Through` (a
    /// program cannot make a kernel client, whatever it calls itself).
    public var isKernelMidiThrough: Bool { isKernelClient && clientName == "Midi Through" }

    public var capabilityWords: [String] { SequencerPortCapability.words.filter { capabilities & $0.0 != 0 }.map(\.1) }
    public var typeWords: [String] { SequencerPortType.words.filter { types & $0.0 != 0 }.map(\.1) }

    /// `24:0 'Virtual Raw MIDI 2-0':'VirMIDI 2-0' [read,write,subs-read,subs-write] [midi-generic,software,port]`
    public var description: String {
        "\(client):\(port) '\(clientName)':'\(portName)' [" + capabilityWords.joined(separator: ",") + "] ["
            + typeWords.joined(separator: ",") + "]"
    }
}

import FileAccess
import MemberwiseInit

/// Why a Standard MIDI File could not be read. `description` names the file (when known), the byte
/// offset where parsing stopped (when it applies) and the reason.
public struct MIDIFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String?
    /// Offset from the start of the file of the byte that could not be parsed.
    public var byteOffset: Int?
    public var reason: String

    public var description: String {
        let place = byteOffset.map { "byte offset \($0): " } ?? ""
        return (path.map { "\($0): " } ?? "") + place + reason
    }
}

/// A channel message at an absolute time in a MIDI file.
@PublicInit
public struct MIDIFileEvent: Sendable, Equatable {
    /// Time from the start of the song, with every tempo change applied.
    public var seconds: Double
    /// Index of the `MTrk` chunk the event came from (0-based).
    public var track: Int
    public var message: MIDIMessage
}

/// A song's channel messages in time order, 16 bytes each (time, track, status and data bytes):
/// the most a 64 MB file holds, 8 million 3-byte events with running status, takes 128 MB, not the
/// 3–4 times that a `MIDIFileEvent` array and its intermediates did. Reads as `MIDIFileEvent`s.
public struct MIDIEventList: RandomAccessCollection, Sendable, Equatable {
    /// One event as stored: `time` holds ticks while the file is parsed (exact in a Double: a
    /// 64 MB file cannot reach 2⁵³ ticks), seconds once the tempo map is applied.
    /// A recognised SysEx is stored with status `F0` and its three packed bytes in the data bytes.
    struct Packed: Sendable, Equatable {
        var time: Double
        var track: UInt16
        var status: UInt8
        var data1: UInt8
        var data2: UInt8
        var data3: UInt8 = 0

        var message: MIDIMessage {
            guard status == 0xF0 else { return MIDIByteDecoder.message(status: status, data1: data1, data2: data2) }
            return SystemExclusive(packed: data1, data2, data3).map(MIDIMessage.system) ?? .system(.generalMIDIOff)
        }
    }

    var packed: [Packed]

    /// Memory per event.
    public static let bytesPerEvent = MemoryLayout<Packed>.stride

    init(packed: [Packed]) { self.packed = packed }

    public init(_ events: [MIDIFileEvent]) {
        packed = events.map { Packed(time: $0.seconds, track: UInt16(clamping: $0.track), message: $0.message) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { packed.count }

    public subscript(index: Int) -> MIDIFileEvent {
        let p = packed[index]
        return MIDIFileEvent(seconds: p.time, track: Int(p.track), message: p.message)
    }
}

// In an extension, so that `Packed` keeps its synthesised memberwise initialiser.
extension MIDIEventList.Packed {
    init(time: Double, track: UInt16, message: MIDIMessage) {
        if case .system(let sysex) = message {
            let (kind, a, b) = sysex.packed
            self.init(time: time, track: track, status: 0xF0, data1: kind, data2: a, data3: b)
        } else {
            let (status, data1, data2) = message.statusAndData
            self.init(time: time, track: track, status: status, data1: data1, data2: data2)
        }
    }
}

/// A Standard MIDI File (type 0 or 1) flattened into one timeline of channel messages.
/// Built on the control thread; the player walks `events` and converts seconds to frames.
@PublicInit
public struct MIDIFile: Sendable, Equatable {
    /// 0 (one track) or 1 (parallel tracks sharing the first track's tempo map).
    public var format: Int
    /// Ticks per quarter note from the header; 0 for SMPTE-timed files (see `ticksPerSecond`).
    public var ticksPerQuarter: Int
    /// Set for SMPTE-timed files: frames per second × ticks per frame (tempo events do not apply).
    public var ticksPerSecond: Double?
    /// Channel messages of every track merged, sorted by time; simultaneous events keep track order,
    /// then file order (so a note-off written before a note-on at the same tick stays before it).
    public var events: MIDIEventList
    /// Track names (meta event 3), one per `MTrk` chunk; "" when a track has none.
    public var trackNames: [String]
    /// Time of the last event of any kind, including end-of-track markers.
    public var durationSeconds: Double
    /// Untidiness that was read anyway, one line each, naming the byte offset (see `MIDIFileParser`).
    public var warnings: [String] = []

    public init(
        format: Int, ticksPerQuarter: Int, ticksPerSecond: Double? = nil, events: [MIDIFileEvent],
        trackNames: [String], durationSeconds: Double
    ) {
        self.init(
            format: format, ticksPerQuarter: ticksPerQuarter, ticksPerSecond: ticksPerSecond, events: MIDIEventList(events),
            trackNames: trackNames, durationSeconds: durationSeconds)
    }

    /// Control thread. Reads and parses a `.mid` file; errors name the path and byte offset.
    public static func read(path: String) throws(MIDIFileError) -> MIDIFile {
        let bytes = try readAllBytes(path: path)
        do {
            return try parse(bytes)
        } catch {
            var named = error
            named.path = path
            throw named
        }
    }

    /// Any thread (allocates). Parses the bytes of a Standard MIDI File.
    public static func parse(_ bytes: [UInt8]) throws(MIDIFileError) -> MIDIFile {
        var parser = MIDIFileParser(bytes: bytes)
        return try parser.parse()
    }

    /// MIDI files are small (a long song is well under 1 MB); refuse absurd sizes instead of loading them.
    public static let maxFileBytes = 64 << 20

    private static func readAllBytes(path: String) throws(MIDIFileError) -> [UInt8] {
        do {
            return try RegularFile.read(path, maxBytes: maxFileBytes, what: "MIDI file")
        } catch {
            throw MIDIFileError(path: path, reason: error.reason)
        }
    }
}

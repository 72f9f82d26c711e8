import MemberwiseInit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes type-1 Standard MIDI Files: a conductor track named "tempo" (tempo changes) followed by one
/// `MTrk` per `Track`, so when read back `Track` i is file track i + 1. Minimal and explicit: every
/// event carries its status byte (no running status); a `.system` message is written as a SysEx.
/// Control/offline thread only.
public enum MIDIFileWriter {
    /// A channel message at a tick (ticks from the start of the song, not deltas).
    @PublicInit
    public struct TimedEvent: Sendable, Equatable {
        public var tick: Int
        public var message: MIDIMessage
    }

    /// One track: a name (written as meta event 3) and its events. Events at the same tick keep the
    /// order given here, so put a note-off before a note-on that re-strikes the same key.
    @PublicInit
    public struct Track: Sendable, Equatable {
        public var name: String
        public var events: [TimedEvent]
    }

    /// A tempo that takes effect at `tick`.
    @PublicInit
    public struct TempoChange: Sendable, Equatable {
        public var tick: Int
        public var beatsPerMinute: Double
    }

    /// The file's bytes. `ticksPerQuarter` is 1…32767; negative ticks are written at 0.
    public static func bytes(
        tracks: [Track], ticksPerQuarter: Int = 480, tempoChanges: [TempoChange] = [TempoChange(tick: 0, beatsPerMinute: 120)]
    ) -> [UInt8] {
        var out: [UInt8] = Array("MThd".utf8)
        append32(6, to: &out)
        append16(1, to: &out)  // format 1
        append16(tracks.count + 1, to: &out)
        append16(max(1, min(0x7FFF, ticksPerQuarter)), to: &out)

        var conductor: [(tick: Int, bytes: [UInt8])] = [(0, meta(0x03, Array("tempo".utf8)))]
        for change in tempoChanges where change.beatsPerMinute > 0 {
            let micros = min(0xFF_FFFF, Int((60_000_000 / change.beatsPerMinute).rounded()))
            conductor.append((change.tick, meta(0x51, [UInt8(micros >> 16), UInt8((micros >> 8) & 0xFF), UInt8(micros & 0xFF)])))
        }
        appendTrack(conductor, to: &out)
        for track in tracks {
            var items: [(tick: Int, bytes: [UInt8])] = [(0, meta(0x03, Array(track.name.utf8)))]
            items += track.events.map { ($0.tick, fileBytes($0.message)) }
            appendTrack(items, to: &out)
        }
        return out
    }

    /// Writes `bytes(...)` to `path`.
    public static func write(
        path: String, tracks: [Track], ticksPerQuarter: Int = 480,
        tempoChanges: [TempoChange] = [TempoChange(tick: 0, beatsPerMinute: 120)]
    ) throws(MIDIFileError) {
        let data = bytes(tracks: tracks, ticksPerQuarter: ticksPerQuarter, tempoChanges: tempoChanges)
        guard let file = fopen(path, "wb") else {
            throw MIDIFileError(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
        let written = fwrite(data, 1, data.count, file)
        guard fclose(file) == 0, written == data.count else {
            throw MIDIFileError(path: path, reason: "write failed: \(String(cString: strerror(errno)))")
        }
    }

    /// A channel message as is; a SysEx as a file stores it: `F0`, its length, the bytes after `F0`.
    private static func fileBytes(_ message: MIDIMessage) -> [UInt8] {
        let bytes = message.bytes
        guard bytes.first == 0xF0 else { return bytes }
        return [0xF0] + variableLength(bytes.count - 1) + bytes.dropFirst()
    }

    private static func meta(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [0xFF, type] + variableLength(data.count) + data
    }

    /// Sorts by tick (stable), writes deltas and an end-of-track event.
    private static func appendTrack(_ items: [(tick: Int, bytes: [UInt8])], to out: inout [UInt8]) {
        let ordered = items.enumerated().sorted { (max(0, $0.element.tick), $0.offset) < (max(0, $1.element.tick), $1.offset) }
        var body: [UInt8] = []
        var previous = 0
        for item in ordered.map(\.element) {
            let tick = max(0, item.tick)
            body += variableLength(tick - previous) + item.bytes
            previous = tick
        }
        body += [0x00, 0xFF, 0x2F, 0x00]
        out += Array("MTrk".utf8)
        append32(body.count, to: &out)
        out += body
    }

    static func variableLength(_ value: Int) -> [UInt8] {
        var remaining = min(max(0, value), 0x0FFF_FFFF)
        var result = [UInt8(remaining & 0x7F)]
        remaining >>= 7
        while remaining > 0 {
            result.insert(UInt8(remaining & 0x7F) | 0x80, at: 0)
            remaining >>= 7
        }
        return result
    }

    private static func append16(_ value: Int, to out: inout [UInt8]) {
        out += [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func append32(_ value: Int, to out: inout [UInt8]) {
        out += [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// Parses the events of one `MTrk` chunk: delta times, running status, channel messages, the
/// SysEx a sound module acts on (`SystemExclusive`; others are skipped) and the meta events that
/// matter here (tempo, track name, end of track).
///
/// Lenient where files in the wild are untidy and nothing can go wrong: running status that
/// continues after a meta or SysEx event (the spec cancels it there; mido and TiMidity++ reuse
/// the last channel status, and so do we) is counted for the file's one warning; a track cut off
/// in its End of Track keeps every event it has (`isCutInEndOfTrack`).
struct MIDITrackParser {
    let bytes: [UInt8]
    var offset: Int
    let end: Int
    let track: Int
    /// What has been read so far: whole when `parse` returns, up to the last complete event when it throws.
    private(set) var result = Result()
    /// Where the last complete event ends.
    private(set) var completeThrough: Int

    struct Result {
        var tempoChanges: [MIDITempoMap.Change] = []
        var name = ""
        var endTick = 0
        /// Whether the track ended with its End of Track event (not just at its chunk's end).
        var endedWithEndOfTrack = false
        /// Data bytes that reused the channel status from before a meta or SysEx event: how many,
        /// and the offset of the first.
        var runningStatusAcrossMeta = 0
        var firstRunningStatusAcrossMeta = 0
    }

    init(bytes: [UInt8], start: Int, end: Int, track: Int) {
        self.bytes = bytes
        self.offset = start
        self.end = end
        self.track = track
        completeThrough = start
    }

    /// Appends the track's channel events to `events` (times in ticks); returns the rest.
    mutating func parse(into events: inout [MIDIEventList.Packed]) throws(MIDIFileError) -> Result {
        var tick = 0
        var runningStatus: UInt8 = 0
        // The channel status a meta or SysEx event cancelled: reused (with a warning) when data follows.
        var cancelledStatus: UInt8 = 0
        while offset < end {
            tick += try variableLength()
            let eventStart = offset
            let first = try byte()
            switch first {
            case 0xFF:
                if runningStatus != 0 { cancelledStatus = runningStatus }
                runningStatus = 0  // meta and SysEx events cancel running status
                let type = try byte()
                let length = try variableLength()
                let data = Array(try take(length))
                if type == 0x2F {
                    result.endTick = tick
                    result.endedWithEndOfTrack = true
                    return result
                }
                if type == 0x51 {
                    guard length == 3 else { throw MIDIFileError(byteOffset: eventStart, reason: "tempo event of length \(length)") }
                    let micros = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
                    guard micros > 0 else { throw MIDIFileError(byteOffset: eventStart, reason: "tempo of 0 µs per quarter") }
                    result.tempoChanges.append(MIDITempoMap.Change(tick: tick, microsecondsPerQuarter: micros))
                }
                if type == 0x03 && result.name.isEmpty { result.name = String(decoding: data, as: UTF8.self) }
            case 0xF0, 0xF7:
                if runningStatus != 0 { cancelledStatus = runningStatus }
                runningStatus = 0
                let body = try take(try variableLength())
                // F7 packets continue a split SysEx or escape raw bytes: none is a message we act on.
                if first == 0xF0, let sysex = body.withUnsafeBytes({ SystemExclusive.decode($0) }) {
                    events.append(MIDIEventList.Packed(time: Double(tick), track: UInt16(truncatingIfNeeded: track), message: .system(sysex)))
                }
            case 0x80...0xEF:
                runningStatus = first
                events.append(try channelEvent(status: first, tick: tick, firstData: nil))
            case 0x00...0x7F:
                if runningStatus == 0 && cancelledStatus != 0 {
                    if result.runningStatusAcrossMeta == 0 { result.firstRunningStatusAcrossMeta = eventStart }
                    result.runningStatusAcrossMeta += 1
                    runningStatus = cancelledStatus
                }
                guard runningStatus != 0 else {
                    throw MIDIFileError(byteOffset: eventStart, reason: "data byte 0x\(hex(first)) without a running status")
                }
                events.append(try channelEvent(status: runningStatus, tick: tick, firstData: first))
            default:
                throw MIDIFileError(byteOffset: eventStart, reason: "status byte 0x\(hex(first)) is not allowed in a MIDI file")
            }
            result.endTick = tick
            completeThrough = offset
        }
        // A track without an end-of-track event is accepted; it simply ends at its last event.
        return result
    }

    /// Whether the bytes after the last complete event up to the data's end are the start of an
    /// End of Track event (its delta time, FF 2F 00) and nothing else: a file cut off there has
    /// lost no event, only where the track says it ends.
    var isCutInEndOfTrack: Bool {
        var tail = bytes[completeThrough..<min(end, bytes.count)][...]
        var deltaBytes = 0
        while let byte = tail.first, byte & 0x80 != 0, deltaBytes < 3 {
            tail = tail.dropFirst()
            deltaBytes += 1
        }
        if tail.isEmpty { return true }
        tail = tail.dropFirst()  // the delta's last byte
        return zip(tail, [0xFF, 0x2F, 0x00] as [UInt8]).allSatisfy { $0 == $1 } && tail.count < 3
    }

    private mutating func channelEvent(status: UInt8, tick: Int, firstData: UInt8?) throws(MIDIFileError) -> MIDIEventList.Packed {
        let data1: UInt8
        if let firstData { data1 = firstData } else { data1 = try dataByte() }
        var data2: UInt8 = 0
        if MIDIByteDecoder.dataByteCount(status: status) == 2 { data2 = try dataByte() }
        return MIDIEventList.Packed(time: Double(tick), track: UInt16(truncatingIfNeeded: track), status: status, data1: data1, data2: data2)
    }

    private mutating func byte() throws(MIDIFileError) -> UInt8 {
        guard offset < end else {
            throw MIDIFileError(byteOffset: offset, reason: "event runs past the end of track \(track)")
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func dataByte() throws(MIDIFileError) -> UInt8 {
        let value = try byte()
        guard value < 0x80 else {
            throw MIDIFileError(byteOffset: offset - 1, reason: "expected a data byte, found 0x\(hex(value))")
        }
        return value
    }

    private mutating func take(_ count: Int) throws(MIDIFileError) -> ArraySlice<UInt8> {
        guard count <= end - offset else {
            throw MIDIFileError(byteOffset: offset, reason: "\(count)-byte event body runs past the end of track \(track)")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// A variable-length quantity: 7 bits per byte, high bit = more follows, at most 4 bytes.
    private mutating func variableLength() throws(MIDIFileError) -> Int {
        let start = offset
        var value = 0
        for _ in 0..<4 {
            let next = try byte()
            value = value << 7 | Int(next & 0x7F)
            if next & 0x80 == 0 { return value }
        }
        throw MIDIFileError(byteOffset: start, reason: "variable-length quantity longer than 4 bytes")
    }

    private func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0xF)]])
    }
}

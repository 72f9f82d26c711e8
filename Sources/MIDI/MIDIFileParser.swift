/// Parses SMF bytes: the `MThd` header, then each `MTrk` chunk's delta-timed events.
/// Every failure reports the offset of the offending byte. Two kinds of untidiness real players
/// accept are read with one warning each (`MIDIFile.warnings`), naming the offset: running status
/// continuing after a meta or SysEx event, and a last track whose declared length runs past the
/// end of the file but which ends with its End of Track (FluidSynth plays it) or is cut off inside
/// it (TiMidity++ plays it; every event is there). A track cut off inside another event is still
/// an error: an event would be lost.
struct MIDIFileParser {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parse() throws(MIDIFileError) -> MIDIFile {
        guard bytes.count >= 14, Array(bytes[0..<4]) == Array("MThd".utf8) else {
            throw MIDIFileError(byteOffset: 0, reason: "not a Standard MIDI File (no MThd header)")
        }
        offset = 4
        let headerLength = Int(try uint32())
        guard headerLength >= 6, headerLength <= bytes.count - 8 else {
            throw MIDIFileError(byteOffset: 4, reason: "bad MThd length \(headerLength)")
        }
        let format = Int(try uint16())
        let declaredTracks = Int(try uint16())
        let division = try uint16()
        offset = 8 + headerLength
        guard format != 2 else {
            throw MIDIFileError(byteOffset: 8, reason: "type 2 (independent sequences) MIDI files are not supported")
        }
        guard format <= 1 else { throw MIDIFileError(byteOffset: 8, reason: "unknown MIDI file format \(format)") }
        let timing = try Self.timing(division: division)

        var events: [MIDIEventList.Packed] = []
        var tempoChanges: [MIDITempoMap.Change] = []
        var names: [String] = []
        var warnings: [String] = []
        var runningStatusAcrossMeta = (count: 0, first: 0)
        var lastTick = 0
        while names.count < declaredTracks {
            guard offset + 8 <= bytes.count else {
                throw MIDIFileError(
                    byteOffset: offset, reason: "header declares \(declaredTracks) tracks, file ends after \(names.count)")
            }
            let chunkStart = offset
            let type = Array(bytes[offset..<offset + 4])
            offset += 4
            let length = Int(try uint32())
            let isMTrk = type == Array("MTrk".utf8)
            let overrun = length - (bytes.count - offset)
            guard overrun <= 0 || isMTrk else {
                throw MIDIFileError(
                    byteOffset: chunkStart, reason: "chunk length \(length) runs past the end of the file (truncated track)")
            }
            guard isMTrk else {
                offset += length  // unknown chunk types are skipped, as the spec asks
                continue
            }
            var track = MIDITrackParser(bytes: bytes, start: offset, end: min(offset + length, bytes.count), track: names.count)
            let parsed: MIDITrackParser.Result
            do {
                parsed = try track.parse(into: &events)
            } catch {
                guard overrun > 0 else { throw error }  // the chunk is whole: the error is the track's own
                parsed = track.result  // cut off by the file's end: what it holds, judged below
            }
            if overrun > 0 {
                // Read what is there when no event is lost: the length field, or the End of Track's few bytes, are what is wrong.
                if parsed.endedWithEndOfTrack {
                    warnings.append(
                        "byte offset \(chunkStart): track \(names.count) declares \(length) bytes, \(overrun) more than the file holds; "
                            + "read up to its End of Track")
                } else if track.isCutInEndOfTrack {
                    warnings.append(
                        "byte offset \(chunkStart): track \(names.count) declares \(length) bytes, \(overrun) more than the file holds, "
                            + "and the file ends in its End of Track (byte offset \(track.completeThrough)); read all its events")
                } else {
                    throw Self.truncated(chunkStart, length, overrun)
                }
            }
            if parsed.runningStatusAcrossMeta > 0 {
                if runningStatusAcrossMeta.count == 0 { runningStatusAcrossMeta.first = parsed.firstRunningStatusAcrossMeta }
                runningStatusAcrossMeta.count += parsed.runningStatusAcrossMeta
            }
            tempoChanges += parsed.tempoChanges
            names.append(parsed.name)
            lastTick = max(lastTick, parsed.endTick)
            offset = min(offset + length, bytes.count)
        }
        guard !names.isEmpty else { throw MIDIFileError(byteOffset: offset, reason: "the file has no tracks") }
        if runningStatusAcrossMeta.count > 0 {
            let times = runningStatusAcrossMeta.count == 1 ? "once" : "\(runningStatusAcrossMeta.count) times"
            warnings.insert(
                "byte offset \(runningStatusAcrossMeta.first): running status continues after a meta or SysEx event (\(times)); "
                    + "the last channel status was reused", at: 0)
        }

        let tempoMap = MIDITempoMap(timing: timing, changes: tempoChanges)
        // Tick, then track, then position in the file: each track's events are in tick order
        // and the tracks follow one another, so a stable sort by (tick, track) gives it (a type 0
        // file is in order already). In place: a song can hold millions of events.
        if names.count > 1 { events.sort { ($0.time, $0.track) < ($1.time, $1.track) } }
        for i in events.indices { events[i].time = tempoMap.seconds(atTick: Int(events[i].time)) }
        var ticksPerQuarter = 0
        var ticksPerSecond: Double?
        switch timing {
        case .metrical(let ticks): ticksPerQuarter = ticks
        case .smpte(let ticks): ticksPerSecond = ticks
        }
        return MIDIFile(
            format: format, ticksPerQuarter: ticksPerQuarter, ticksPerSecond: ticksPerSecond, events: MIDIEventList(packed: events),
            trackNames: names, durationSeconds: tempoMap.seconds(atTick: lastTick), warnings: warnings)
    }

    private static func truncated(_ chunkStart: Int, _ length: Int, _ overrun: Int) -> MIDIFileError {
        MIDIFileError(
            byteOffset: chunkStart,
            reason: "chunk length \(length) runs \(overrun) bytes past the end of the file and the track has no End of Track there (truncated track)")
    }

    static func timing(division: UInt16) throws(MIDIFileError) -> MIDITempoMap.Timing {
        if division & 0x8000 == 0 {
            guard division > 0 else { throw MIDIFileError(byteOffset: 12, reason: "division of 0 ticks per quarter note") }
            return .metrical(ticksPerQuarter: Int(division))
        }
        // SMPTE: high byte is −frames per second (24, 25, 29 = 29.97 drop frame, 30), low byte ticks per frame.
        let framesPerSecond = -Int(Int8(bitPattern: UInt8(division >> 8)))
        let ticksPerFrame = Int(division & 0xFF)
        let rate: Double
        switch framesPerSecond {
        case 24, 25, 30: rate = Double(framesPerSecond)
        case 29: rate = 30_000.0 / 1001.0
        default: throw MIDIFileError(byteOffset: 12, reason: "unknown SMPTE frame rate \(framesPerSecond)")
        }
        guard ticksPerFrame > 0 else { throw MIDIFileError(byteOffset: 13, reason: "SMPTE division with 0 ticks per frame") }
        return .smpte(ticksPerSecond: rate * Double(ticksPerFrame))
    }

    private mutating func uint16() throws(MIDIFileError) -> UInt16 {
        guard offset + 2 <= bytes.count else { throw MIDIFileError(byteOffset: offset, reason: "unexpected end of file") }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    private mutating func uint32() throws(MIDIFileError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw MIDIFileError(byteOffset: offset, reason: "unexpected end of file") }
        defer { offset += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }
}

import MIDI
import Testing

/// The SysEx a GM module acts on: recognised from their bytes (any device id, GS block order,
/// GS checksum), read from Standard MIDI Files at their time, decoded from a byte stream.
@Suite struct SystemExclusiveTests {
    /// Bytes after `F0`, through `F7`.
    static func body(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) }

    @Test func recognisesTheResetsWithAnyDeviceID() {
        for device: UInt8 in [0x00, 0x10, 0x7F] {
            #expect(SystemExclusive.decode([0x7E, device, 0x09, 0x01, 0xF7]) == .reset(.generalMIDI))
            #expect(SystemExclusive.decode([0x7E, device, 0x09, 0x02, 0xF7]) == .generalMIDIOff)
            #expect(SystemExclusive.decode([0x7E, device, 0x09, 0x03, 0xF7]) == .reset(.generalMIDI2))
            #expect(SystemExclusive.decode([0x41, device, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]) == .reset(.gs))
            #expect(SystemExclusive.decode([0x7F, device, 0x04, 0x01, 0x00, 0x40, 0xF7]) == .masterVolume(8192))
        }
        for n: UInt8 in [0x10, 0x13, 0x1F] {
            #expect(SystemExclusive.decode([0x43, n, 0x4C, 0x00, 0x00, 0x7E, 0x00, 0xF7]) == .reset(.xg))
        }
        #expect(SystemExclusive.decode([0x7E, 0x7F, 0x09, 0x01]) == .reset(.generalMIDI), "the closing F7 may be missing")
    }

    @Test func rhythmPartFollowsGSBlockOrder() {
        func rhythm(block: UInt8, map: UInt8) -> SystemExclusive? {
            let address: [UInt8] = [0x40, 0x10 | block, 0x15]
            let sum = address.reduce(0) { $0 + Int($1) } + Int(map)
            return SystemExclusive.decode([0x41, 0x10, 0x42, 0x12] + address + [map, UInt8((128 - sum % 128) % 128), 0xF7])
        }
        #expect(rhythm(block: 0, map: 1) == .rhythmPart(channel: 9, map: 1), "block 0 is channel 10")
        #expect(rhythm(block: 1, map: 2) == .rhythmPart(channel: 0, map: 2), "block 1 is channel 1")
        #expect(rhythm(block: 9, map: 0) == .rhythmPart(channel: 8, map: 0), "block 9 is channel 9")
        #expect(rhythm(block: 0xA, map: 1) == .rhythmPart(channel: 10, map: 1), "block A is channel 11")
        #expect(rhythm(block: 0xF, map: 1) == .rhythmPart(channel: 15, map: 1), "block F is channel 16")
        #expect(rhythm(block: 0xA, map: 3) == nil, "maps are 0–2")
    }

    @Test func refusesWhatIsNotOneOfThem() {
        #expect(SystemExclusive.decode([0x41, 0x10, 0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x40, 0xF7]) == nil, "bad GS checksum")
        #expect(SystemExclusive.decode([0x7E, 0x7F, 0x06, 0x01, 0xF7]) == nil, "identity request")
        #expect(SystemExclusive.decode([0x7E, 0x7F, 0x09, 0x01, 0x00, 0xF7]) == nil, "longer than GM System On")
        #expect(SystemExclusive.decode([0x43, 0x10, 0x4C, 0x02, 0x01, 0x00, 0x01, 0xF7]) == nil, "an XG effect parameter")
        #expect(SystemExclusive.decode([0x7E, 0x7F, 0x89, 0x01, 0xF7]) == nil, "a status byte inside")
        #expect(SystemExclusive.decode([0x7E]) == nil)
    }

    @Test(arguments: [
        SystemExclusive.reset(.generalMIDI), .reset(.generalMIDI2), .reset(.gs), .reset(.xg), .generalMIDIOff,
        .rhythmPart(channel: 9, map: 1), .rhythmPart(channel: 10, map: 2), .rhythmPart(channel: 0, map: 0), .masterVolume(12345),
    ])
    func bytesDecodeBackToTheMessage(message: SystemExclusive) {
        let bytes = message.bytes
        #expect(bytes.first == 0xF0 && bytes.last == 0xF7)
        #expect(SystemExclusive.decode(Self.body(bytes)) == message)
    }

    /// Written into a type-1 file and read back: each at its own time, among the channel events.
    @Test func theFileReaderCarriesThemAtTheirTime() throws {
        let messages: [MIDIMessage] = [
            .system(.reset(.gs)), .system(.rhythmPart(channel: 10, map: 1)), .noteOn(channel: 10, note: 38, velocity: 100),
            .system(.masterVolume(1000)), .system(.reset(.generalMIDI)),
        ]
        let track = MIDIFileWriter.Track(name: "t", events: messages.enumerated().map { .init(tick: 480 * $0.offset, message: $0.element) })
        let file = try MIDIFile.parse(MIDIFileWriter.bytes(tracks: [track]))
        #expect(file.events.map(\.message) == messages)
        #expect(file.events.map(\.seconds) == [0, 0.5, 1, 1.5, 2])
        #expect(file.warnings.isEmpty)
    }

    /// A SysEx that is none of ours (an identity request), and an `F7` escape packet, are skipped.
    @Test func otherSysExInAFileIsSkipped() throws {
        let track: [UInt8] = [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x06, 0x01, 0xF7] + [0x00, 0xF7, 0x02, 0xF3, 0x01]
            + [0x00, 0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7] + [0x00, 0x90, 60, 100] + SMFBuilder.endOfTrack
        let file = try MIDIFile.parse(SMFBuilder.file(format: 0, tracks: [track]))
        #expect(file.events.map(\.message) == [.system(.reset(.generalMIDI)), .noteOn(channel: 0, note: 60, velocity: 100)])
    }

    @Test func theByteDecoderRecognisesThemLiveAmongOtherBytes() {
        var decoder = MIDIByteDecoder()
        let stream: [UInt8] = [0x90, 60, 100]
            + [0xF0, 0x7E, 0xF8, 0x7F, 0x09, 0x01, 0xF7]  // GM System On with a clock byte inside
            + [61, 100]  // running status was cancelled by the SysEx: dropped
            + SystemExclusive.rhythmPart(channel: 10, map: 1).bytes
            + [0xF0] + [UInt8](repeating: 0x01, count: 40) + [0xF7]  // too long for any of ours
            + [0xF0, 0x7F, 0x7F, 0x04, 0x01, 0x00, 0x40]  // unterminated master volume, ended by a status byte
            + [0xB0, 7, 90]
        let messages = stream.compactMap { decoder.decode($0) }
        #expect(messages == [
            .noteOn(channel: 0, note: 60, velocity: 100), .system(.reset(.generalMIDI)), .system(.rhythmPart(channel: 10, map: 1)),
            .system(.masterVolume(8192)), .controlChange(channel: 0, controller: 7, value: 90),
        ])
    }
}

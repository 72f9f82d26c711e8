import AudioTestSupport
import AudioFiles
import Testing

/// CAF files built byte by byte: libsndfile decodes the audio, our chunk reader the metadata.
@Suite struct CAFMetadataTests {
    let frames = 2000

    @Test func littleEndianInstChunkAsAppleWritesIt() throws {
        let audio = try readBack(caf(instBigEndian: false, baseNote: 34, markers: []), as: "tbone.caf")
        #expect(audio.frameCount == frames)
        #expect(audio.metadata.rootKey == 34)
        #expect(audio.metadata.fineTuneCents == nil)
        #expect(audio.metadata.keyRange == 20...50)
        #expect(audio.metadata.velocityRange == 1...100)
        #expect(audio.formatDescription == "CAF PCM 16-bit, 44100 Hz, mono")
    }

    @Test func bigEndianInstWithFractionalBaseNoteAndRegionLoop() throws {
        let audio = try readBack(caf(instBigEndian: true, baseNote: 60.25, markers: [("slbg", 500), ("slen", 1500)]), as: "spec.caf")
        #expect(audio.metadata.rootKey == 60)
        #expect(abs((audio.metadata.fineTuneCents ?? 0) + 25) < 1e-3)  // 25 cents sharp → play 25 cents lower
        #expect(audio.metadata.loops == [SampleLoop(startFrame: 500, endFrame: 1500)])
    }

    @Test func markChunkLoopAndReleaseLoopInLittleEndianMarkers() throws {
        let markers = [("slbg", 100.0), ("slen", 900.0), ("rlbg", 1000.0), ("rlen", 1800.0)]
        let audio = try readBack(caf(instBigEndian: false, baseNote: 72, markers: markers, markersInMarkChunk: true, markersBigEndian: false), as: "marks.caf")
        #expect(audio.metadata.rootKey == 72)
        #expect(audio.metadata.loops == [SampleLoop(startFrame: 100, endFrame: 900), SampleLoop(startFrame: 1000, endFrame: 1800)])
    }

    @Test func garbageMetadataChunksAreIgnoredNotFatal() throws {
        // An implausible base note in both byte orders, and a region count far larger than the chunk.
        var bytes = caf(instBigEndian: true, baseNote: -3, markers: [("slbg", 1), ("slen", 2)])
        if let regn = (0..<bytes.count - 4).first(where: { Array(bytes[$0..<$0 + 4]) == Array("regn".utf8) }) {
            bytes[regn + 12 + 4] = 0x7F  // region count high byte
        }
        let audio = try readBack(bytes, as: "garbage.caf")
        #expect(audio.frameCount == frames)
        #expect(audio.metadata == SampleMetadata())
    }

    @Test func samplesDecodeFromHandBuiltData() throws {
        let audio = try readBack(caf(instBigEndian: true, baseNote: 60, markers: []), as: "ramp.caf")
        #expect(audio.channels[0][1000] == Float(1000 * 16) / 32768)
    }

    /// 44.1 kHz mono 16-bit big-endian CAF: desc, inst, optional markers (in one `regn` region or a
    /// `mark` chunk), data (a ramp).
    private func caf(
        instBigEndian: Bool, baseNote: Float, markers: [(String, Double)], markersInMarkChunk: Bool = false,
        markersBigEndian: Bool = true
    ) -> [UInt8] {
        var out = ByteBuilder()
        out.ascii("caff"); out.uint16(1); out.uint16(0)
        out.ascii("desc"); out.uint64(32)
        out.float64(44_100); out.ascii("lpcm"); out.uint32(0)  // flags 0: big-endian signed integer
        out.uint32(2); out.uint32(1); out.uint32(1); out.uint32(16)
        var inst = ByteBuilder(bigEndian: instBigEndian)
        inst.float32(baseNote)
        inst.uint8(20); inst.uint8(50); inst.uint8(1); inst.uint8(100)
        inst.float32(0); inst.uint32(0); inst.uint32(0); inst.uint32(0); inst.uint32(0)
        out.ascii("inst"); out.uint64(UInt64(inst.bytes.count)); out.bytes += inst.bytes
        if !markers.isEmpty {
            var regn = ByteBuilder(bigEndian: markersBigEndian)
            regn.uint32(0)  // SMPTE time type
            if !markersInMarkChunk {
                regn.uint32(1)  // one region: id, flags, then its marker list
                regn.uint32(1); regn.uint32(0)
            }
            regn.uint32(UInt32(markers.count))
            for (type, position) in markers {
                regn.uint32(type.utf8.reduce(0) { $0 << 8 | UInt32($1) }); regn.float64(position); regn.uint32(0)
                regn.uint64(0); regn.uint32(0)  // SMPTE time, channel
            }
            out.ascii(markersInMarkChunk ? "mark" : "regn"); out.uint64(UInt64(regn.bytes.count)); out.bytes += regn.bytes
        }
        out.ascii("data"); out.uint64(UInt64(4 + frames * 2)); out.uint32(0)  // edit count
        for frame in 0..<frames { out.int16(Int16(frame * 16)) }
        return out.bytes
    }
}

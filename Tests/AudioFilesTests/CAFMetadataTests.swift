import AudioFiles
import Testing

/// CAF files built byte by byte: libsndfile decodes the audio, our chunk reader the metadata.
@Suite struct CAFMetadataTests {
    let frames = 2000

    @Test func littleEndianInstChunkAsAppleWritesIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("tbone.caf")
        writeBytes(caf(instBigEndian: false, baseNote: 34, markers: []), to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.frameCount == frames)
        #expect(audio.metadata.rootKey == 34)
        #expect(audio.metadata.fineTuneCents == nil)
        #expect(audio.metadata.keyRange == 20...50)
        #expect(audio.metadata.velocityRange == 1...100)
        #expect(audio.formatDescription == "CAF PCM 16-bit, 44100 Hz, mono")
    }

    @Test func bigEndianInstWithFractionalBaseNoteAndRegionLoop() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("spec.caf")
        writeBytes(caf(instBigEndian: true, baseNote: 60.25, markers: [("slbg", 500), ("slen", 1500)]), to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.metadata.rootKey == 60)
        #expect(abs((audio.metadata.fineTuneCents ?? 0) + 25) < 1e-3)  // 25 cents sharp → play 25 cents lower
        #expect(audio.metadata.loops == [SampleLoop(startFrame: 500, endFrame: 1500)])
    }

    @Test func samplesDecodeFromHandBuiltData() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("ramp.caf")
        writeBytes(caf(instBigEndian: true, baseNote: 60, markers: []), to: path)
        let audio = try AudioFileReader.read(path: path)
        #expect(audio.channels[0][1000] == Float(1000 * 16) / 32768)
    }

    /// 44.1 kHz mono 16-bit big-endian CAF: desc, inst, optional regn with one region, data (a ramp).
    private func caf(instBigEndian: Bool, baseNote: Float, markers: [(String, Double)]) -> [UInt8] {
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
            var regn = ByteBuilder()
            regn.uint32(0); regn.uint32(1)  // SMPTE type, one region
            regn.uint32(1); regn.uint32(0); regn.uint32(UInt32(markers.count))  // id, flags, marker count
            for (type, position) in markers {
                regn.ascii(type); regn.float64(position); regn.uint32(0)
                regn.uint64(0); regn.uint32(0)  // SMPTE time, channel
            }
            out.ascii("regn"); out.uint64(UInt64(regn.bytes.count)); out.bytes += regn.bytes
        }
        out.ascii("data"); out.uint64(UInt64(4 + frames * 2)); out.uint32(0)  // edit count
        for frame in 0..<frames { out.int16(Int16(frame * 16)) }
        return out.bytes
    }
}

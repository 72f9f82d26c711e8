import AudioTestSupport
import AudioFiles
import Testing

/// WAV `smpl` chunks built byte by byte, as other tools write them: unity note, pitch fraction,
/// and loops whose end is INCLUSIVE on disk.
@Suite struct WAVSmplChunkTests {
    @Test func inclusiveEndOnDiskBecomesExclusiveAndPitchFractionBecomesCorrection() throws {
        let audio = try readBack(wav(unityNote: 62, pitchFraction: 0x8000_0000, loopStart: 10, loopEndInclusive: 89), as: "smpl.wav")
        #expect(audio.frameCount == 100)
        #expect(audio.metadata.rootKey == 62)
        // The recording is half a semitone sharp of D4: play it 50 cents lower.
        #expect(audio.metadata.fineTuneCents == -50)
        #expect(audio.metadata.loops == [SampleLoop(startFrame: 10, endFrame: 90)])
    }

    @Test func loopBeyondTheAudioIsDroppedNotTrusted() throws {
        let audio = try readBack(wav(unityNote: 60, pitchFraction: 0, loopStart: 10, loopEndInclusive: 5000), as: "overlong.wav")
        #expect(audio.metadata.rootKey == 60)
        #expect(audio.metadata.fineTuneCents == nil)
        #expect(audio.metadata.loops.isEmpty)
    }

    /// 100 frames of 16-bit mono at 44.1 kHz with a one-loop `smpl` chunk.
    private func wav(unityNote: UInt32, pitchFraction: UInt32, loopStart: UInt32, loopEndInclusive: UInt32) -> [UInt8] {
        var body = ByteBuilder(bigEndian: false)
        body.ascii("WAVE")
        body.ascii("fmt "); body.uint32(16)
        body.uint16(1); body.uint16(1); body.uint32(44_100); body.uint32(88_200); body.uint16(2); body.uint16(16)
        body.ascii("smpl"); body.uint32(36 + 24)
        body.uint32(0); body.uint32(0); body.uint32(22_675)  // manufacturer, product, sample period (ns)
        body.uint32(unityNote); body.uint32(pitchFraction)
        body.uint32(0); body.uint32(0); body.uint32(1); body.uint32(0)  // SMPTE format/offset, loops, sampler data
        body.uint32(0); body.uint32(0); body.uint32(loopStart); body.uint32(loopEndInclusive); body.uint32(0); body.uint32(0)
        body.ascii("data"); body.uint32(200)
        for frame in 0..<100 { body.int16(Int16(frame * 100)) }
        var file = ByteBuilder(bigEndian: false)
        file.ascii("RIFF"); file.uint32(UInt32(body.bytes.count))
        return file.bytes + body.bytes
    }
}

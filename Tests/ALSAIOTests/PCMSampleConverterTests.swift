import ALSAIO
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PCMSampleConverterTests {
    /// One 16-bit step: the largest rounding error of a Float → S16 → Float round trip is half of it.
    static let signed16Step: Float = 1 / 32_767

    func interleave(_ left: [Float], _ right: [Float], channels: Int, format: PCMSampleFormat) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xAA, count: left.count * channels * format.bytesPerSample)
        bytes.withUnsafeMutableBytes { raw in
            PCMSampleConverter.interleave(
                left: left, right: right, frames: left.count, into: raw.baseAddress!, channels: channels, format: format)
        }
        return bytes
    }

    func deinterleave(_ bytes: [UInt8], frames: Int, channels: Int, format: PCMSampleFormat) -> ([Float], [Float]) {
        var left = [Float](repeating: .nan, count: frames)
        var right = [Float](repeating: .nan, count: frames)
        bytes.withUnsafeBytes { raw in
            PCMSampleConverter.deinterleave(
                from: raw.baseAddress!, frames: frames, channels: channels, format: format, left: &left, right: &right)
        }
        return (left, right)
    }

    @Test(arguments: PCMSampleFormat.allCases)
    func stereoRoundTripIsWithinOneStep(format: PCMSampleFormat) {
        let left: [Float] = (0..<257).map { sin(Float($0) * 0.05) * 0.9 }
        let right: [Float] = (0..<257).map { cos(Float($0) * 0.031) * -0.7 }
        let (l, r) = deinterleave(interleave(left, right, channels: 2, format: format), frames: 257, channels: 2, format: format)
        let tolerance: Float = format == .signed16LE ? Self.signed16Step / 2 : 1e-7
        #expect(zip(left, l).allSatisfy { abs($0 - $1) <= tolerance })
        #expect(zip(right, r).allSatisfy { abs($0 - $1) <= tolerance })
    }

    @Test(arguments: [PCMSampleFormat.signed16LE, .signed32LE])
    func integerFormatsClipAndNeverTrap(format: PCMSampleFormat) {
        let input: [Float] = [1, -1, 2.5, -7, .nan, .infinity, -.infinity, 0]
        let (l, _) = deinterleave(interleave(input, input, channels: 2, format: format), frames: input.count, channels: 2, format: format)
        #expect(l == [1, -1, 1, -1, 0, 1, -1, 0])
    }

    @Test func s16UsesTheFullSymmetricRange() {
        let bytes = interleave([1, -1], [0.5, 0], channels: 2, format: .signed16LE)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples == [32_767, 16_384, -32_767, 0])  // L0 R0 L1 R1
    }

    @Test func monoDeviceGetsTheMixAndFillsBothSidesOnCapture() {
        let bytes = interleave([1, 0.5], [0, -0.5], channels: 1, format: .float32LE)
        let (l, r) = deinterleave(bytes, frames: 2, channels: 1, format: .float32LE)
        #expect(l == [0.5, 0])
        #expect(r == [0.5, 0])
    }

    @Test func extraChannelsAreSilentOnPlaybackAndIgnoredOnCapture() {
        let bytes = interleave([0.25, 0.5], [-0.25, -0.5], channels: 4, format: .float32LE)
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples == [0.25, -0.25, 0, 0, 0.5, -0.5, 0, 0])
        let (l, r) = deinterleave(bytes, frames: 2, channels: 4, format: .float32LE)
        #expect(l == [0.25, 0.5])
        #expect(r == [-0.25, -0.5])
    }
}

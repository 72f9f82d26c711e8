import DSP
import Testing

@Suite struct BlockPeakTests {
    /// A stereo block of `frames` holding `left` and `right` (both `frames` long).
    private func withBlock<T>(_ left: [Float], _ right: [Float], _ body: (StereoBlock) -> T) -> T {
        var left = left, right = right
        return left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in body(StereoBlock(left: l.baseAddress!, right: r.baseAddress!, frames: l.count)) }
        }
    }

    /// Every frame count from 0 to 11 (vector body and scalar tail), the loudest sample in each
    /// position and channel, negative or positive.
    @Test func showingNaNIsTheLargestMagnitudeWhereverItIs() {
        for frames in 0...11 {
            for loudest in 0..<max(1, 2 * frames) {
                var left = (0..<frames).map { Float($0 % 5) * 0.01 - 0.02 }, right = left.map { -$0 }
                if frames > 0 {
                    let value: Float = loudest % 3 == 0 ? -0.9 : 0.9
                    if loudest < frames { left[loudest] = value } else { right[loudest - frames] = value }
                }
                let peak = withBlock(left, right) { BlockPeak.showingNaN($0) }
                #expect(peak == (frames > 0 ? 0.9 : 0), "frames \(frames), loudest at \(loudest)")
                #expect(peak == withBlock(left, right) { BlockPeak.of($0) })
            }
        }
    }

    /// A NaN anywhere (which a max drops) reads as +∞, in the vector body and in the tail alike.
    @Test func aNaNAnywhereShowsAsInfinity() {
        for frames in 1...11 {
            for at in 0..<(2 * frames) {
                var left = [Float](repeating: 0.5, count: frames), right = left
                if at < frames { left[at] = .nan } else { right[at - frames] = .nan }
                #expect(withBlock(left, right) { BlockPeak.showingNaN($0) } == .infinity, "frames \(frames), NaN at \(at)")
            }
        }
    }
}

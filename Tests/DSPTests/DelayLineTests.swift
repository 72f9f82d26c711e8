import DSP
import Testing

@Suite struct DelayLineTests {
    @Test func readsBackByAgeAndForgetsOnReset() {
        let line = DelayLine(maximumAgeFrames: 1_000)
        for i in 1...1_500 { line.write(Float(i)) }
        #expect(line.read(age: 0) == 1_500)
        #expect(line.read(age: 999) == 501)
        #expect(line.read(age: 5_000) == 500)  // clamped to the maximum age
        line.reset()
        #expect(line.read(age: 0) == 0)
        line.write(7)
        #expect(line.read(age: 0) == 7)
        #expect(line.read(age: 1) == 0)  // written before the reset: silence
    }
}

@Suite struct MovingAverageKernelTests {
    @Test func equalsTheNaiveAverageAfterManyRefreshes() {
        let average = MovingAverage(points: 37)
        var history: [Float] = []
        var worst: Float = 0
        var s: UInt32 = 1
        for _ in 0..<20_000 {
            s = s &* 1_664_525 &+ 1_013_904_223
            let x = Float(s >> 8) / Float(1 << 24) - 0.5
            history.append(x)
            let y = average.process(x)
            let naive = history.suffix(37).reduce(0, +) / 37
            worst = max(worst, abs(y - naive))
        }
        // Float rounding of a 37-term sum, not drift: the sum is recomputed every 4096 samples.
        #expect(worst < 1e-5)
    }
}

@Suite struct CrossfadeTests {
    @Test func risesFromZeroToOneWithFlatEnds() {
        var fade = Crossfade(sampleRate: 48_000, seconds: 0.020)
        fade.start()
        var gains: [Float] = []
        while fade.isActive { gains.append(fade.next()) }
        #expect(gains.count == 960)
        #expect(gains.first! < 1e-4 && gains.last! == 1)
        #expect(zip(gains, gains.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(abs(gains[479] - 0.5) < 0.01)
    }
}

@Suite struct MovingAverageBlockTests {
    @Test func blockProcessingMatchesPerSampleAcrossRefreshes() {
        let perSample = MovingAverage(points: 23), perBlock = MovingAverage(points: 23)
        var s: UInt32 = 9
        let x: [Float] = (0..<10_000).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return Float(s >> 8) / Float(1 << 24) - 0.5
        }
        let expected = x.map { perSample.process($0) }
        var got = [Float](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { input in
            got.withUnsafeMutableBufferPointer { output in
                var start = 0
                while start < x.count {
                    let n = min(77, x.count - start)
                    perBlock.process(input.baseAddress! + start, into: output.baseAddress! + start, count: n)
                    start += n
                }
            }
        }
        #expect(got == expected)
    }
}

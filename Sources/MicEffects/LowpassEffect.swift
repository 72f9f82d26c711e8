import DSP

/// Stereo 101-tap windowed-sinc low-pass with a smoothed cutoff (20 ms glide in log frequency).
/// While the cutoff glides, every frame is filtered by the two neighbouring bank kernels and
/// blended with that frame's own weight (no steps at block edges); once it rests, one blended
/// kernel is built and used alone. Render-thread safe after init. Latency: 50 frames (linear phase).
final class LowpassEffect {
    static var latencyFrames: Int { (LowpassBank.tapCount - 1) / 2 }

    /// The bank and the two filters; the render path uses the unretained references below.
    private let parts: (bank: LowpassKernelBank, left: FIRFilter, right: FIRFilter)
    private let bank: RenderRef<LowpassKernelBank>
    private let left: RenderRef<FIRFilter>
    private let right: RenderRef<FIRFilter>
    private var position: LinearSmoother
    private let restingKernel: UnsafeMutablePointer<Float>
    private var restingPosition: Float = -1

    init(sampleRate: Double) {
        let bank = LowpassKernelBank(sampleRate: sampleRate)
        parts = (bank, FIRFilter(tapCount: LowpassBank.tapCount), FIRFilter(tapCount: LowpassBank.tapCount))
        self.bank = RenderRef(parts.bank)
        left = RenderRef(parts.left)
        right = RenderRef(parts.right)
        position = LinearSmoother(value: bank.position(forCutoffHz: 1000), sampleRate: sampleRate, rampSeconds: 0.020)
        restingKernel = .allocate(capacity: LowpassBank.tapCount)
        restingKernel.initialize(repeating: 0, count: LowpassBank.tapCount)
    }

    deinit { restingKernel.deallocate() }

    /// −6 dB frequency in Hz, clamped to 20…4000 (below ≈ 445 Hz at 48 kHz the kernel cannot get
    /// narrower; see `WindowedSinc`).
    @_noAllocation
    func setCutoffHz(_ hz: Double) {
        let target = bank { $0.position(forCutoffHz: hz) }
        position.setTarget(target)
    }

    @_noAllocation
    func reset() {
        left { $0.reset() }
        right { $0.reset() }
        position.snap(to: position.target)
    }

    @_noAllocation
    func process(input: StereoBlock, output: StereoBlock) {
        let bank = bank, left = left, right = right
        var i = 0
        while i < input.frames {
            let ramping = position.isRamping
            if !ramping { break }
            let p = position.next()
            let (j, t) = bank { $0.split(p) }
            let a = bank { $0.kernel(j) }, b = bank { $0.kernel(j + 1) }
            let (xL, xR) = (input.left[i], input.right[i])
            let (la, lb) = left { $0.process(xL, taps: a, b) }
            let (ra, rb) = right { $0.process(xR, taps: a, b) }
            output.left[i] = la + t * (lb - la)
            output.right[i] = ra + t * (rb - ra)
            i += 1
        }
        guard i < input.frames else { return }
        let current = position.current
        if restingPosition != current {
            restingPosition = current
            let kernel = restingKernel
            bank { $0.blend(at: current, into: kernel) }
        }
        let h = UnsafePointer(restingKernel), rest = input.frames - i, start = i
        left { $0.process(input.left + start, into: output.left + start, count: rest, taps: h) }
        right { $0.process(input.right + start, into: output.right + start, count: rest, taps: h) }
    }
}

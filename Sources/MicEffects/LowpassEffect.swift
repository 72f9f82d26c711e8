import DSP

/// Stereo 101-tap windowed-sinc low-pass with a smoothed cutoff (20 ms glide in log frequency).
/// While the cutoff glides, every frame is filtered by the two neighbouring bank kernels and
/// blended with that frame's own weight (no steps at block edges); once it rests, one blended
/// kernel is built and used alone. Render-thread safe after init. Latency: 50 frames (linear phase).
final class LowpassEffect {
    static var latencyFrames: Int { (LowpassKernelBank.tapCount - 1) / 2 }

    private let bank: LowpassKernelBank
    private let left = FIRFilter(tapCount: LowpassKernelBank.tapCount)
    private let right = FIRFilter(tapCount: LowpassKernelBank.tapCount)
    private var position: LinearSmoother
    private let restingKernel: UnsafeMutablePointer<Float>
    private var restingPosition: Float = -1

    init(sampleRate: Double) {
        bank = LowpassKernelBank(sampleRate: sampleRate)
        position = LinearSmoother(value: bank.position(forCutoffHz: 1000), sampleRate: sampleRate, rampSeconds: 0.020)
        restingKernel = .allocate(capacity: LowpassKernelBank.tapCount)
        restingKernel.initialize(repeating: 0, count: LowpassKernelBank.tapCount)
    }

    deinit { restingKernel.deallocate() }

    /// −6 dB frequency in Hz, clamped to 20…4000 (below ≈ 445 Hz at 48 kHz the kernel cannot get
    /// narrower; see `WindowedSinc`).
    func setCutoffHz(_ hz: Double) { position.setTarget(bank.position(forCutoffHz: hz)) }

    func reset() {
        left.reset()
        right.reset()
        position.snap(to: position.target)
    }

    func process(input: StereoBlock, output: StereoBlock) {
        var i = 0
        while i < input.frames && position.isRamping {
            let (j, t) = bank.split(position.next())
            let a = bank.kernel(j), b = bank.kernel(j + 1)
            let (la, lb) = left.process(input.left[i], taps: a, b)
            let (ra, rb) = right.process(input.right[i], taps: a, b)
            output.left[i] = la + t * (lb - la)
            output.right[i] = ra + t * (rb - ra)
            i += 1
        }
        guard i < input.frames else { return }
        if restingPosition != position.current {
            restingPosition = position.current
            bank.blend(at: restingPosition, into: restingKernel)
        }
        let h = UnsafePointer(restingKernel), rest = input.frames - i
        left.process(input.left + i, into: output.left + i, count: rest, taps: h)
        right.process(input.right + i, into: output.right + i, count: rest, taps: h)
    }
}

import CFFTW
import DSP

/// Owner of a pair of single-precision FFTW plans (real → complex and back) and their buffers.
///
/// Threads: `init` and `deinit` plan and destroy on the control thread; they are serialised
/// with one process-wide lock because FFTW's planner is not thread-safe. `forward()` and
/// `inverse()` only execute existing plans: Render-thread safe (no allocation, no lock).
///
/// Layout: `time` holds `size` reals; `spectrum` holds `size/2 + 1` complex bins interleaved as
/// re, im. FFTW is unnormalised: `inverse(forward(x)) = size · x`. `inverse()` overwrites
/// `spectrum` (FFTW's c2r destroys its input).
public final class RealFFT {
    public let size: Int
    public var binCount: Int { size / 2 + 1 }
    /// `size` real samples.
    public var time: UnsafeMutablePointer<Float> { transform.time }
    /// `binCount` complex bins, interleaved (re, im).
    public var spectrum: UnsafeMutablePointer<Float> { transform.spectrum }
    /// The plans and buffers as a plain value: what the render thread keeps and calls (a call on
    /// this object, held in another's stored property, would retain it).
    public let transform: Transform
    private let complexBuffer: UnsafeMutablePointer<fftwf_complex>

    /// FFTW's planner keeps global state; every plan creation and destruction goes through here.
    private static let plannerLock = ControlLock()

    /// `size` must be even. `measure: true` times candidate algorithms (slower to create, faster
    /// to run); otherwise FFTW estimates. Control thread only.
    public init(size: Int, measure: Bool = false) {
        precondition(size >= 2 && size % 2 == 0, "FFT size must be even")
        self.size = size
        let real = fftwf_alloc_real(size)!
        let complex = fftwf_alloc_complex(size / 2 + 1)!
        complexBuffer = complex
        let spectrum = UnsafeMutableRawPointer(complex).bindMemory(to: Float.self, capacity: size + 2)
        let flags = measure ? UInt32(FFTW_MEASURE) : UInt32(FFTW_ESTIMATE)
        // Plan before filling the buffers: measuring overwrites them.
        let (forwardPlan, inversePlan) = Self.plannerLock.withLock {
            (fftwf_plan_dft_r2c_1d(Int32(size), real, complex, flags)!, fftwf_plan_dft_c2r_1d(Int32(size), complex, real, flags)!)
        }
        transform = Transform(size: size, time: real, spectrum: spectrum, forwardPlan: forwardPlan, inversePlan: inversePlan)
        real.initialize(repeating: 0, count: size)
        spectrum.initialize(repeating: 0, count: size + 2)
    }

    deinit {
        Self.plannerLock.withLock {
            fftwf_destroy_plan(transform.forwardPlan)
            fftwf_destroy_plan(transform.inversePlan)
        }
        fftwf_free(transform.time)
        fftwf_free(complexBuffer)
    }

    /// `time` → `spectrum`. Render-thread safe.
    public func forward() { transform.forward() }

    /// `spectrum` → `time` (unnormalised; `spectrum` is destroyed). Render-thread safe.
    public func inverse() { transform.inverse() }

    /// A `RealFFT`'s plans and buffers, valid while it lives. Render-thread safe.
    public struct Transform {
        public let size: Int
        public var binCount: Int { size / 2 + 1 }
        public let time: UnsafeMutablePointer<Float>
        public let spectrum: UnsafeMutablePointer<Float>
        let forwardPlan: fftwf_plan
        let inversePlan: fftwf_plan

        /// `time` → `spectrum`.
        @_noAllocation
        public func forward() { execute(forwardPlan) }

        /// `spectrum` → `time` (unnormalised; `spectrum` is destroyed).
        @_noAllocation
        public func inverse() { execute(inversePlan) }
    }
}

/// FFTW's execute, the one call into Spectral's render path the real-time checks cannot see
/// (C): opted out here, as libm is in `RealTimeMath`. It runs an existing plan on its own
/// buffers: no allocation, no lock (FFTW's planner lock is taken only when planning).
@_semantics("no_performance_analysis")
private func execute(_ plan: fftwf_plan) { fftwf_execute(plan) }

import CFFTW
#if canImport(Glibc)
import Glibc
#endif

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
    public let time: UnsafeMutablePointer<Float>
    /// `binCount` complex bins, interleaved (re, im).
    public let spectrum: UnsafeMutablePointer<Float>
    private let complexBuffer: UnsafeMutablePointer<fftwf_complex>
    private let forwardPlan: fftwf_plan
    private let inversePlan: fftwf_plan

    /// FFTW's planner keeps global state; every plan creation and destruction goes through here.
    private static let plannerLock = PlannerLock()

    /// `size` must be even. `measure: true` times candidate algorithms (slower to create, faster
    /// to run); otherwise FFTW estimates. Control thread only.
    public init(size: Int, measure: Bool = false) {
        precondition(size >= 2 && size % 2 == 0, "FFT size must be even")
        self.size = size
        let real = fftwf_alloc_real(size)!
        let complex = fftwf_alloc_complex(size / 2 + 1)!
        time = real
        complexBuffer = complex
        spectrum = UnsafeMutableRawPointer(complex).bindMemory(to: Float.self, capacity: size + 2)
        let flags = measure ? UInt32(FFTW_MEASURE) : UInt32(FFTW_ESTIMATE)
        // Plan before filling the buffers: measuring overwrites them.
        Self.plannerLock.lock()
        forwardPlan = fftwf_plan_dft_r2c_1d(Int32(size), real, complex, flags)
        inversePlan = fftwf_plan_dft_c2r_1d(Int32(size), complex, real, flags)
        Self.plannerLock.unlock()
        time.initialize(repeating: 0, count: size)
        spectrum.initialize(repeating: 0, count: size + 2)
    }

    deinit {
        Self.plannerLock.lock()
        fftwf_destroy_plan(forwardPlan)
        fftwf_destroy_plan(inversePlan)
        Self.plannerLock.unlock()
        fftwf_free(time)
        fftwf_free(complexBuffer)
    }

    /// `time` → `spectrum`. Render-thread safe.
    public func forward() { fftwf_execute(forwardPlan) }

    /// `spectrum` → `time` (unnormalised; `spectrum` is destroyed). Render-thread safe.
    public func inverse() { fftwf_execute(inversePlan) }
}

/// A pthread mutex for FFTW's planner and other control-thread state (never taken while
/// rendering). A plain lock/unlock pair because the plans it guards are not `Sendable`.
public final class PlannerLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
}

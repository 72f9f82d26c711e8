import CALSA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The C calls the render thread makes, opted out of the compiler's real-time check by name: it
/// cannot see into C (Sources/DSP/README.md, "Checked by the compiler"). Each moves audio, waits
/// for the device or the clock, restarts a stream, or rounds a sample: no allocation, no lock of ours. The
/// transfers block by design (the device paces the loop); `snd_pcm_recover` and
/// `snd_pcm_avail_update` are here for the error handling that tells a dead audio server from an
/// underrun. The one file in ALSAIO with `no_performance_analysis`.
enum RenderThreadCalls {
    @_semantics("no_performance_analysis")
    static func writei(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
        Int(snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames)))
    }

    @_semantics("no_performance_analysis")
    static func readi(_ pcm: OpaquePointer, _ buffer: UnsafeMutableRawPointer, _ frames: Int) -> Int {
        Int(snd_pcm_readi(pcm, buffer, snd_pcm_uframes_t(frames)))
    }

    @_semantics("no_performance_analysis")
    static func prepare(_ pcm: OpaquePointer) -> Int32 { snd_pcm_prepare(pcm) }

    @_semantics("no_performance_analysis")
    static func resume(_ pcm: OpaquePointer) -> Int32 { snd_pcm_resume(pcm) }

    @_semantics("no_performance_analysis")
    static func start(_ pcm: OpaquePointer) -> Int32 { snd_pcm_start(pcm) }

    @_semantics("no_performance_analysis")
    @discardableResult
    static func wait(_ pcm: OpaquePointer, milliseconds: Int32) -> Int32 { snd_pcm_wait(pcm, milliseconds) }

    @_semantics("no_performance_analysis")
    static func recover(_ pcm: OpaquePointer, _ code: Int32) -> Int32 { snd_pcm_recover(pcm, code, 1) }

    @_semantics("no_performance_analysis")
    static func availUpdate(_ pcm: OpaquePointer) -> Int { Int(snd_pcm_avail_update(pcm)) }

    /// libm's round-to-nearest (one instruction on x86-64 and arm64), for the integer sample formats.
    @_semantics("no_performance_analysis") @inline(__always)
    static func roundToInt(_ x: Float) -> Int { lrintf(x) }

    /// CLOCK_MONOTONIC now (a vDSO read).
    @_semantics("no_performance_analysis") @inline(__always)
    static func monotonicNow() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now
    }

    /// Sleeps until `deadline` (CLOCK_MONOTONIC), through signals.
    @_semantics("no_performance_analysis")
    static func sleep(until deadline: timespec) {
        var wake = deadline
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
    }
}

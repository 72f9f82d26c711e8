import Synchronization
import CALSA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open ALSA PCM device (playback or capture) with interleaved read/write access that blocks
/// until the device has room (or data), waiting with a timeout so a dead peer cannot hold it.
///
/// Threads: `init`, `drain()` and `deinit` on a control thread; `write`/`read` on the one
/// render thread that owns the device (never two threads at once); `xrunCount` and
/// `configuration` from any thread.
///
/// Error taxonomy on the render thread (after FluidSynth's ALSA driver): `-EAGAIN` → wait for
/// the device; `-EINTR` → retry; `-EPIPE` (underrun/overrun) → `snd_pcm_prepare`, count an xrun,
/// carry on; `-ESTRPIPE` (suspended) → `snd_pcm_resume`, else prepare; anything else
/// (`-ENODEV` unplugged, `-EBADFD`, a sound server's `-EIO`, …) → `.deviceLost`: close and reopen
/// with back-off. A sound server that died is told from an underrun by `PeerLossWatch` (an EPIPE
/// again with nothing moved since the last recovery, no room for two seconds: `.deviceLost`).
///
/// `@unchecked Sendable`: the handle and the interleave buffer are used by one thread at a time
/// (above); the counters are atomic.
public final class PCMDevice: @unchecked Sendable {
    /// What ALSA granted (rate, channels, format, period and buffer sizes).
    public let configuration: PCMConfiguration

    private let handle: OpaquePointer
    // Copies of the negotiated values the render thread reads (no String-bearing struct on the hot path).
    private let channels: Int
    private let format: PCMSampleFormat
    private let isCapture: Bool
    private var captureStarted = false
    /// Preallocated interleave buffer holding `chunkFrames` frames in the device format.
    private let interleaved: UnsafeMutableRawPointer
    private let chunkFrames: Int
    private let bytesPerFrame: Int
    private let xruns = Atomic<Int>(0)
    private var watch: PeerLossWatch

    /// Recoveries allowed inside one call before the rest of the block is dropped, so a
    /// device that keeps failing cannot trap the render thread in a loop.
    private static let recoveryLimitPerCall = 8
    private static let resumeAttempts = 200

    /// Underruns (playback) or overruns (capture) recovered since opening. Any thread.
    public var xrunCount: Int { @_noAllocation get { xruns.load(ordering: .relaxed) } }

    /// Opens and configures `request.deviceName`. Control thread. A device another program
    /// holds fails at once (`-EBUSY`). A capture stream is started explicitly by the first
    /// `read` (with the default start threshold it would wait for a full buffer and a short
    /// read would block forever), so setup time before the loop is not an overrun.
    public init(_ request: PCMRequest) throws(ALSAError) {
        silenceALSAErrorOutput()
        let stream = request.direction == .playback ? SND_PCM_STREAM_PLAYBACK : SND_PCM_STREAM_CAPTURE
        var opened: OpaquePointer?
        // Non-blocking: a device held by another program fails at once with -EBUSY instead of
        // hanging here, and transfers wait in snd_pcm_wait with a timeout (a dead JACK server
        // under the `jack` plugin would leave a blocking write in poll() for ever).
        let route = PCMRoute.of(request.deviceName)
        let opening = "snd_pcm_open(\"\(request.deviceName)\", \(request.direction.rawValue))"
        // The pulse plugin's transfer thread, started here, inherits a real-time policy if asked.
        let pluginPriority = route == .pulse ? request.pluginThreadPriority : nil
        let openResult = RealtimeThread.whileScheduled(fifoPriority: pluginPriority) {
            snd_pcm_open(&opened, request.deviceName, stream, SND_PCM_NONBLOCK)
        }
        if openResult < 0 {
            let absent = route.serverAbsentExplanation(device: request.deviceName, code: openResult)
            throw ALSAError(operation: opening, code: openResult, summary: absent)
        }
        guard let pcm = opened else { throw ALSAError(operation: opening, code: -EINVAL) }
        var negotiated: PCMConfiguration
        do {
            negotiated = try PCMHardwareSetup.configure(pcm, request)
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        negotiated.route = route
        handle = pcm
        configuration = negotiated
        channels = negotiated.channels
        format = negotiated.format
        isCapture = negotiated.direction == .capture
        chunkFrames = max(negotiated.bufferFrames, negotiated.periodFrames, 1)
        bytesPerFrame = negotiated.channels * negotiated.format.bytesPerSample
        interleaved = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * bytesPerFrame, alignment: 16)
        interleaved.initializeMemory(as: UInt8.self, repeating: 0, count: chunkFrames * bytesPerFrame)
        watch = PeerLossWatch(bufferFrames: negotiated.bufferFrames, sampleRateHz: negotiated.sampleRateHz)
    }

    /// Closed by `close()`; transfers then report the device lost.
    private var isClosed = false

    deinit {
        close()
        interleaved.deallocate()
    }

    /// Closes the device now, whoever still holds this object: after `.deviceLost` the kernel
    /// cannot finish removing the card while a handle stays open. Control thread, with no
    /// transfer running; later transfers return `.deviceLost`. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        snd_pcm_close(handle)
    }

    /// Writes `frames` frames of planar stereo to a playback device, blocking until the
    /// device has room. Render thread; no allocation. Any frame count is accepted.
    @_noAllocation
    public func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PCMTransferStatus {
        if isClosed { return .deviceLost(code: -EBADFD) }
        var status = PCMTransferStatus.complete
        var recoveries = 0
        var done = 0
        while done < frames {
            let chunk = min(frames - done, chunkFrames)
            PCMSampleConverter.interleave(
                left: left + done, right: right + done, frames: chunk, into: interleaved,
                channels: channels, format: format)
            var offset = 0
            while offset < chunk {
                let result = RenderThreadCalls.writei(handle, interleaved + offset * bytesPerFrame, chunk - offset)
                if result >= 0 {
                    offset += Int(result)
                    if result > 0 { watch.transferred() }
                    continue
                }
                switch recover(from: Int32(truncatingIfNeeded: result), recoveries: &recoveries) {
                case .retry: continue
                case .recovered: status = .recovered
                case .giveUpOnBlock: return .recovered
                case .lost(let code): return .deviceLost(code: code)
                }
            }
            done += chunk
        }
        return status
    }

    /// Reads `frames` frames from a capture device into planar stereo (a mono device fills
    /// both sides), blocking until they have arrived. Render thread; no allocation.
    /// On `.deviceLost` the buffers hold what was read before the failure, silence after.
    @_noAllocation
    public func read(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> PCMTransferStatus {
        if isClosed { return .deviceLost(code: -EBADFD) }
        var status = PCMTransferStatus.complete
        if !captureStarted {
            captureStarted = true
            let started = RenderThreadCalls.start(handle)
            if started < 0 && started != -EBADFD {  // EBADFD: already running
                left.update(repeating: 0, count: frames)
                right.update(repeating: 0, count: frames)
                return .deviceLost(code: started)
            }
        }
        var recoveries = 0
        var done = 0
        while done < frames {
            let wanted = min(frames - done, chunkFrames)
            let result = RenderThreadCalls.readi(handle, interleaved, wanted)
            if result >= 0 {
                if result > 0 { watch.transferred() }
                PCMSampleConverter.deinterleave(
                    from: interleaved, frames: Int(result), channels: channels, format: format, left: left + done, right: right + done)
                done += Int(result)
                continue
            }
            let outcome = recover(from: Int32(truncatingIfNeeded: result), recoveries: &recoveries)
            switch outcome {
            case .retry: continue
            case .recovered: status = .recovered
            case .giveUpOnBlock, .lost:
                (left + done).update(repeating: 0, count: frames - done)
                (right + done).update(repeating: 0, count: frames - done)
                if case .lost(let code) = outcome { return .deviceLost(code: code) }
                return .recovered
            }
        }
        return status
    }

    /// Frames between the application and the converter right now: for playback, how long
    /// until a frame written now is heard; nil if ALSA cannot tell (stream not running).
    /// Any single thread at a time; no allocation.
    public func delayFrames() -> Int? {
        var delay: snd_pcm_sframes_t = 0
        return isClosed || snd_pcm_delay(handle, &delay) < 0 ? nil : Int(delay)
    }

    /// Plays out what is queued, then stops (playback). Control thread; blocks up to one buffer.
    public func drain() {
        guard !isCapture && !isClosed else { return }
        snd_pcm_nonblock(handle, 0)  // a non-blocking drain returns at once
        snd_pcm_drain(handle)
    }

    private enum Recovery { case retry, recovered, giveUpOnBlock, lost(Int32) }

    /// The error taxonomy, in one place. Render thread; no allocation.
    @_noAllocation
    private func recover(from code: Int32, recoveries: inout Int) -> Recovery {
        switch -code {
        case EAGAIN:
            // No room (data) yet: wait for it, but not for ever.
            if watch.stalled(now: MonotonicClock.nanoseconds()) { return .lost(-ETIMEDOUT) }
            if RenderThreadCalls.wait(handle, milliseconds: watch.waitMilliseconds) == 0 { return .lost(-ETIMEDOUT) }
            return .retry
        case EINTR:
            return .retry
        case EPIPE, ESTRPIPE:
            // A condition list, not `&&`: its autoclosure would capture self, which the real-time check rejects.
            if -code == EPIPE, watch.xrunMeansLost() {
                xruns.wrappingSubtract(1, ordering: .relaxed)  // the first EPIPE was the death, not an underrun
                return .lost(code)
            }
            recoveries += 1
            xruns.wrappingAdd(1, ordering: .relaxed)
            if recoveries > Self.recoveryLimitPerCall { return .giveUpOnBlock }
            var restart: Int32 = -EPIPE
            if -code == ESTRPIPE {
                restart = RenderThreadCalls.resume(handle)
                var attempts = 0
                while restart == -EAGAIN && attempts < Self.resumeAttempts {
                    // The driver is still waking up; resume is rare, not the steady state.
                    RenderThreadCalls.sleep(until: MonotonicClock.timespecFrom(nanoseconds: MonotonicClock.nanoseconds() + 5_000_000))
                    restart = RenderThreadCalls.resume(handle)
                    attempts += 1
                }
            }
            if restart < 0 {
                restart = RenderThreadCalls.prepare(handle)
                if restart < 0 { return .lost(restart) }
            }
            if isCapture {
                let started = RenderThreadCalls.start(handle)
                if started < 0 { return .lost(started) }
            }
            return .recovered
        default:
            return .lost(code)
        }
    }

    /// Every PCM name ALSA's configuration advertises (`aplay -L` / `arecord -L`), with
    /// its description and directions. Control thread; returns [] if ALSA has no hints.
    public static func listDevices() -> [PCMDeviceInfo] {
        silenceALSAErrorOutput()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let list = hints else { return [] }
        defer { snd_device_name_free_hint(list) }
        var devices: [PCMDeviceInfo] = []
        var index = 0
        while let hint = list[index] {
            index += 1
            guard let name = hintValue(hint, "NAME") else { continue }
            let description = (hintValue(hint, "DESC") ?? "").split(separator: "\n").joined(separator: " / ")
            let direction = hintValue(hint, "IOID")  // nil means both directions
            devices.append(
                PCMDeviceInfo(
                    name: name, description: description,
                    supportsPlayback: direction == nil || direction == "Output",
                    supportsCapture: direction == nil || direction == "Input"))
        }
        return devices
    }

    private static func hintValue(_ hint: UnsafeMutableRawPointer, _ key: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}

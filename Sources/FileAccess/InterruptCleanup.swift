#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Removes the pending output's temporary file when SIGINT, SIGTERM or SIGHUP ends the process,
/// then dies of that signal (its default action, re-raised), so the caller sees 128 + n. The
/// handler only calls `unlink` and `raise` (async-signal-safe) on a path copied beforehand into
/// a fixed buffer. One output at a time (the command line writes one); arming another replaces it.
enum InterruptCleanup {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    private static let state = Mutex<(armed: String?, previous: [sigaction])>((nil, []))

    static func arm(_ path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else { return }  // cannot be removed on a signal; everything else holds
        state.withLock { state in
            pendingPath[0] = 0
            for (i, byte) in bytes.enumerated().dropFirst() { pendingPath[i] = CChar(bitPattern: byte) }
            pendingPath[bytes.count] = 0
            pendingPath[0] = CChar(bitPattern: bytes[0])
            if state.armed == nil {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = removePendingOutputAndDie
                action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
                sigemptyset(&action.sa_mask)
                state.previous = signals.map { signal in
                    var old = sigaction()
                    sigaction(signal, nil, &old)
                    // A signal the process was started ignoring (nohup, `cmd &` in a script) stays ignored.
                    if !isIgnored(old) { sigaction(signal, &action, nil) }
                    return old
                }
            }
            state.armed = path
        }
    }

    static func disarm(_ path: String) {
        state.withLock { state in
            guard state.armed == path else { return }
            pendingPath[0] = 0
            for (signal, old) in zip(signals, state.previous) {
                var previous = old
                sigaction(signal, &previous, nil)
            }
            state = (nil, [])
        }
    }

    static let capacity = Int(PATH_MAX)

    private static func isIgnored(_ action: sigaction) -> Bool {
        guard let handler = action.__sigaction_handler.sa_handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1  // SIG_IGN
    }
}

/// The temporary file to remove; byte 0 is written last, so the handler sees a whole path or none.
nonisolated(unsafe) private let pendingPath: UnsafeMutablePointer<CChar> = {
    let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: InterruptCleanup.capacity)
    buffer.initialize(repeating: 0, count: InterruptCleanup.capacity)
    return buffer
}()

private func removePendingOutputAndDie(_ signal: Int32) {
    if pendingPath[0] != 0 { unlink(pendingPath) }
    raise(signal)  // SA_RESETHAND restored the default action; it ends the process when we return
}

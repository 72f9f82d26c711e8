#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex for control-thread state shared with loader and builder threads (FFTW's
/// planner, the level builders' pool, a program's loading-side storage); never taken on the
/// render thread. pthread's rather than the standard library's `Mutex`, which ThreadSanitizer
/// does not follow here: it reported two threads' accesses made under one as races
/// (`scripts/tsan-live`, DeferredSampleTests), so a real race would have hidden among them.
///
/// `@unchecked Sendable`: the mutex is the synchronisation; its pointer never changes.
public final class ControlLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value only reached under a `ControlLock`: the loading side's shared tables (what `Mutex`
/// would hold, for the reason `ControlLock` gives).
///
/// `@unchecked Sendable`: `value` is touched only inside `withLock`.
public final class ControlLocked<Value>: @unchecked Sendable {
    private let lock = ControlLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A mutex for a program's loading-side state (control, renderer and builder threads; never the
/// render thread), on pthread's. ThreadSanitizer follows pthread mutexes; under the standard
/// library's `Mutex` it reported two threads' accesses made under the lock as races
/// (`scripts/tsan-live`, DeferredSampleTests), so a real race there would have hidden among them.
final class LoadingLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

import CALSA

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What `RealtimeThread.start` obtained, in words a user can act on.
public struct RealtimeStatus: Sendable, Equatable, CustomStringConvertible {
    /// The thread runs under SCHED_FIFO at `priority`.
    public var isRealtime: Bool
    public var priority: Int32
    /// Memory locked (`mlockall` semantics, current and future, but for `ColdLibraryPages`): no page faults on the audio path.
    public var memoryLocked: Bool
    /// Empty when everything was granted; otherwise what failed and how to grant it.
    public var problems: [String]

    public var description: String {
        let scheduling = isRealtime ? "SCHED_FIFO priority \(priority)" : "normal scheduling (SCHED_OTHER)"
        let memory = memoryLocked ? "memory locked" : "memory not locked"
        return ([scheduling + ", " + memory] + problems).joined(separator: "\n  ")
    }

    static let howToGrant =
        "grant it with /etc/security/limits.d/audio.conf containing '@audio - rtprio 95' and "
        + "'@audio - memlock unlimited' (then add the user to group audio and log in again), "
        + "or in a systemd unit: LimitRTPRIO=95 and LimitMEMLOCK=infinity"
}

/// A thread that `start` created; `join()` waits for its body to return. Control thread.
///
/// `@unchecked Sendable`: `joined` is used only by the thread that started it (which joins it).
public final class ThreadHandle: @unchecked Sendable {
    private let thread: pthread_t
    private var joined = false

    init(thread: pthread_t) { self.thread = thread }

    /// Waits for the body to return. Call once, from the thread that started it.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}

/// Failure to create a thread at all (not a refused priority, which falls back).
public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
    public var name: String
    public var code: Int32
    public var description: String { "pthread_create for thread '\(name)' failed: \(String(cString: strerror(code)))" }
}

/// Starts threads for the audio path: SCHED_FIFO when the system allows it, with memory
/// locked, and a plain thread otherwise (with a status saying so and how to fix it).
public enum RealtimeThread {
    /// Starts `body` on a new thread named `name` (first 15 bytes). With `priority` (1…99)
    /// it asks for SCHED_FIFO and, when `lockMemory`, locks the process's memory; on EPERM it
    /// falls back to normal scheduling. `priority: nil` starts a normal thread.
    /// Control thread.
    public static func start(
        name: String, priority: Int32?, lockMemory: Bool = true, stackBytes: Int = stackBytes,
        body: @escaping @Sendable () -> Void
    ) throws(ThreadStartError) -> (ThreadHandle, RealtimeStatus) {
        var problems: [String] = []
        var memoryLocked = false
        if priority != nil && lockMemory {
            memoryLocked = lockProcessMemory(problems: &problems)
        }
        let context = Unmanaged.passRetained(ThreadContext(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        var realtime = false
        if let priority {
            let result = create(&thread, context, fifoPriority: priority, stackBytes: stackBytes)
            if result == 0 {
                realtime = true
            } else {
                problems.append(
                    "SCHED_FIFO priority \(priority) refused (\(String(cString: strerror(result)))); running with normal "
                        + "scheduling, so audio may drop out under load: " + RealtimeStatus.howToGrant)
            }
        }
        if !realtime {
            let result = create(&thread, context, fifoPriority: nil, stackBytes: stackBytes)
            guard result == 0 else {
                Unmanaged<ThreadContext>.fromOpaque(context).release()
                throw ThreadStartError(name: name, code: result)
            }
        }
        let status = RealtimeStatus(
            isRealtime: realtime, priority: realtime ? priority ?? 0 : 0, memoryLocked: memoryLocked, problems: problems)
        return (ThreadHandle(thread: thread), status)
    }

    /// Locks the process's memory as `start` does, for a real-time thread someone else starts
    /// (JACK's process thread). Whether it did, and if not why and how to grant it. Control thread.
    public static func lockMemory() -> (locked: Bool, problems: [String]) {
        var problems: [String] = []
        let locked = lockProcessMemory(problems: &problems)
        return (locked, problems)
    }

    private final class ThreadContext {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Runs `body` with the calling thread under SCHED_FIFO at `fifoPriority` (nil: as it is),
    /// then restores its scheduling. Threads `body` starts with default attributes inherit the
    /// policy: the pulse plugin's libpulse mainloop, which carries our buffer to the server, is
    /// started inside `snd_pcm_open`. Without the right to real-time scheduling, `body` just runs.
    public static func whileScheduled<T, E: Error>(fifoPriority: Int32?, _ body: () throws(E) -> T) throws(E) -> T {
        guard let fifoPriority else { return try body() }
        let me = pthread_self()
        var policy: Int32 = 0
        var saved = sched_param()
        guard pthread_getschedparam(me, &policy, &saved) == 0 else { return try body() }
        var raised = sched_param()
        raised.sched_priority = fifoPriority
        let changed = pthread_setschedparam(me, SCHED_FIFO, &raised) == 0
        defer { if changed { pthread_setschedparam(me, policy, &saved) } }
        return try body()
    }

    /// The stack of the threads `start` creates, instead of the default 8 MiB (`ulimit -s`):
    /// `mlockall(MCL_FUTURE)` locks a new thread's stack whole, and these threads (the render
    /// loop, the MIDI reader) use a few KiB: no recursion, no large local buffers (the render
    /// path allocates nothing). The margin is wide; what was measured is in docs/SOUNDFONTS.md.
    public static let stackBytes = 1 << 20

    private static func create(
        _ thread: inout pthread_t, _ context: UnsafeMutableRawPointer, fifoPriority: Int32?, stackBytes: Int
    ) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)  // EINVAL below PTHREAD_STACK_MIN: the default stays
        if let fifoPriority {
            pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
            pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
            var parameters = sched_param()
            parameters.sched_priority = fifoPriority
            pthread_attr_setschedparam(&attributes, &parameters)
        }
        return pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
                calsa_set_current_thread_name(context.name)  // the kernel truncates to 15 bytes
                context.body()
                return nil
            }, context)
    }

    /// Locks current and future pages, but only when RLIMIT_MEMLOCK cannot bite: with a
    /// finite limit, MCL_FUTURE would make later allocations beyond it fail outright. The
    /// libraries the real-time threads never read are left out (`ColdLibraryPages`).
    private static func lockProcessMemory(problems: inout [String]) -> Bool {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(calsa_rlimit_memlock), &limit)
        let unlimited = limit.rlim_cur == rlim_t.max  // RLIM_INFINITY (its -1 literal does not import)
        guard geteuid() == 0 || unlimited else {
            problems.append(
                "memory not locked: the memlock limit is \(limit.rlim_cur / 1024) KiB, not unlimited, so pages may "
                    + "be swapped out or faulted in on the audio thread: " + RealtimeStatus.howToGrant)
            return false
        }
        let failure = ColdLibraryPages.lockAllButCold()
        if failure == 0 { return true }
        problems.append("mlockall failed (\(String(cString: strerror(failure)))): " + RealtimeStatus.howToGrant)
        return false
    }
}

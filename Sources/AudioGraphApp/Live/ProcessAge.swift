import Foundation

/// How long this process has existed: from exec (the kernel's start time in /proc/self/stat) to now.
/// For the start-up figure `play` prints; control thread.
enum ProcessAge {
    /// Seconds since the process started, to the kernel's clock-tick resolution (10 ms at
    /// USER_HZ = 100), or nil where /proc is unreadable.
    static func seconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "pid (comm)": state is field 3, starttime field 22 (clock ticks after boot).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let uptime = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return max(0, uptime - ticks / Double(sysconf(Int32(_SC_CLK_TCK))))
    }
}

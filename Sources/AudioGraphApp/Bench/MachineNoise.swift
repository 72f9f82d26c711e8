import Foundation

/// What the machine took away from us during a timing run: CPU time stolen by the hypervisor
/// (from /proc/stat) and times the render thread was preempted against its will. A deadline missed
/// while these grow is the machine's, not the render's.
struct MachineNoise {
    var stealSeconds: Double
    var involuntarySwitches: Int

    /// Whole-machine steal time so far (Linux; 0 elsewhere).
    static func stealSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return 0 }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return fields.count > 7 && ticks > 0 ? fields[7] / ticks : 0
    }

    /// Involuntary context switches of the calling thread.
    static func involuntarySwitchesOfThisThread() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (a GNU macro Swift does not import)
        return usage.ru_nivcsw
    }
}

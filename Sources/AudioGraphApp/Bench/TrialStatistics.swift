import ALSAIO

/// Repeats a measurement and keeps the median and the minimum: the minimum is the cost without
/// interference from the rest of the machine, the median what to expect on a busy one.
struct TrialStatistics {
    var median: Double
    var minimum: Double

    static func measure(trials: Int, _ body: () -> Double) -> TrialStatistics {
        let samples = (0..<max(1, trials)).map { _ in body() }.sorted()
        return TrialStatistics(median: samples[samples.count / 2], minimum: samples[0])
    }
}

/// Converts ticks to seconds through a list of tempo changes (for type 1 files the changes of every
/// track form one map, as the conductor track's tempo applies to all tracks).
struct MIDITempoMap {
    enum Timing {
        case metrical(ticksPerQuarter: Int)
        case smpte(ticksPerSecond: Double)
    }

    struct Change {
        var tick: Int
        var microsecondsPerQuarter: Int
    }

    /// A tempo segment: from `tick` on, each tick lasts `secondsPerTick`; `seconds` is the time at `tick`.
    private struct Segment {
        var tick: Int
        var seconds: Double
        var secondsPerTick: Double
    }

    private var segments: [Segment] = []

    /// The default tempo before any change is 120 BPM (500 000 µs per quarter).
    static let defaultMicrosecondsPerQuarter = 500_000

    init(timing: Timing, changes: [Change]) {
        switch timing {
        case .smpte(let ticksPerSecond):
            segments = [Segment(tick: 0, seconds: 0, secondsPerTick: 1 / ticksPerSecond)]
        case .metrical(let ticksPerQuarter):
            let perTick = { (micros: Int) in Double(micros) / 1_000_000 / Double(ticksPerQuarter) }
            segments = [Segment(tick: 0, seconds: 0, secondsPerTick: perTick(Self.defaultMicrosecondsPerQuarter))]
            let sorted = changes.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
            for change in sorted.map(\.element) {
                let last = segments[segments.count - 1]
                let seconds = last.seconds + Double(change.tick - last.tick) * last.secondsPerTick
                let segment = Segment(tick: change.tick, seconds: seconds, secondsPerTick: perTick(change.microsecondsPerQuarter))
                if last.tick == change.tick { segments[segments.count - 1] = segment } else { segments.append(segment) }
            }
        }
    }

    func seconds(atTick tick: Int) -> Double {
        // Binary search for the last segment starting at or before `tick`.
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].tick <= tick { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        return segment.seconds + Double(tick - segment.tick) * segment.secondsPerTick
    }
}

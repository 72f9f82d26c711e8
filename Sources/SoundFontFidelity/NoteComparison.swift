import Foundation

/// One note of ours against FluidSynth's: the differences and whether each is within its
/// tolerance (pitch 1 cent, level 1 dB, times 10 % — or 2 ms, the envelope's resolution — of
/// FluidSynth's). A measure one side has and the other not (a release one side never completes)
/// is a failure; one neither has is not compared.
public struct NoteComparison: Sendable {
    public var ours: NoteMeasurement
    public var reference: NoteMeasurement

    public static let pitchToleranceCents = 1.0
    public static let levelToleranceDecibels = 1.0
    public static let timeTolerance = 0.10
    public static let timeFloorSeconds = 0.003

    public var pitchCents: Double? {
        guard let a = ours.partialHertz, let b = reference.partialHertz else { return nil }
        return 1200 * log2(a / b)
    }

    public var levelDecibels: Double { ours.levelDecibels - reference.levelDecibels }

    public var pitchPasses: Bool { pitchCents.map { abs($0) <= Self.pitchToleranceCents } ?? ((ours.partialHertz == nil) == (reference.partialHertz == nil)) }
    public var levelPasses: Bool { abs(levelDecibels) <= Self.levelToleranceDecibels }
    public var attackPasses: Bool { Self.times(ours.attackSeconds, reference.attackSeconds) }
    public var decayPasses: Bool { Self.times(ours.decaySeconds, reference.decaySeconds) }
    public var releasePasses: Bool { Self.times(ours.releaseSeconds, reference.releaseSeconds) }
    public var passes: Bool { pitchPasses && levelPasses && attackPasses && decayPasses && releasePasses }

    static func times(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= max(timeTolerance * b, timeFloorSeconds)
        default: false
        }
    }

    /// Where one render's envelope ends a time (crosses its threshold), how far the other's is from
    /// its own threshold at that point, dB (ours − FluidSynth's sense: positive when ours is above
    /// it there). Small beside a large time difference means the two envelopes agree and the
    /// crossing moved along a plateau or a ripple: the time is ill-conditioned there, not the note.
    public func gap(_ crossing: KeyPath<NoteMeasurement, NoteMeasurement.Crossing?>) -> Double? {
        guard let theirs = reference[keyPath: crossing], let mine = ours[keyPath: crossing] else { return nil }
        if let point = theirs.point, point < ours.envelope.count { return ours.envelope[point] - mine.threshold }
        if let point = mine.point, point < reference.envelope.count { return theirs.threshold - reference.envelope[point] }
        return nil
    }

    /// What failed, in words (empty when it passes).
    public var failures: [String] {
        var list: [String] = []
        if !pitchPasses { list.append("pitch \(Self.format(pitchCents, "%+.2f")) cents") }
        if !levelPasses { list.append(String(format: "level %+.2f dB", levelDecibels)) }
        func time(_ name: String, _ a: Double?, _ b: Double?, _ crossing: KeyPath<NoteMeasurement, NoteMeasurement.Crossing?>) -> String {
            "\(name) \(Self.format(a)) s vs \(Self.format(b)) s (\(Self.format(gap(crossing), "%+.2f")) dB at the crossing)"
        }
        if !attackPasses { list.append(time("attack", ours.attackSeconds, reference.attackSeconds, \.attackEnd)) }
        if !decayPasses { list.append(time("decay", ours.decaySeconds, reference.decaySeconds, \.decayEnd)) }
        if !releasePasses { list.append(time("release", ours.releaseSeconds, reference.releaseSeconds, \.releaseEnd)) }
        return list
    }

    static func format(_ value: Double?, _ format: String = "%.3f") -> String { value.map { String(format: format, $0) } ?? "—" }
}

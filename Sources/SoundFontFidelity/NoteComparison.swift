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

    /// What failed, in words (empty when it passes).
    public var failures: [String] {
        var list: [String] = []
        if !pitchPasses { list.append("pitch \(Self.format(pitchCents, "%+.2f")) cents") }
        if !levelPasses { list.append(String(format: "level %+.2f dB", levelDecibels)) }
        if !attackPasses { list.append("attack \(Self.format(ours.attackSeconds)) s vs \(Self.format(reference.attackSeconds)) s") }
        if !decayPasses { list.append("decay \(Self.format(ours.decaySeconds)) s vs \(Self.format(reference.decaySeconds)) s") }
        if !releasePasses { list.append("release \(Self.format(ours.releaseSeconds)) s vs \(Self.format(reference.releaseSeconds)) s") }
        return list
    }

    static func format(_ value: Double?, _ format: String = "%.3f") -> String { value.map { String(format: format, $0) } ?? "—" }
}

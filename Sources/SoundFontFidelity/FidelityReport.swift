import Foundation

/// The notes test's report: each note measured in both renders and compared, grouped by preset:
/// "bank:program name  passed/notes" with what failed, then the totals and the medians of the
/// differences. Control thread.
public struct FidelityReport {
    public var notes: [FidelityNotePlan.Note] = []
    public var comparisons: [NoteComparison] = []
    /// Per note, frames FluidSynth's onset came after ours (its render is measured from there).
    public var lags: [Int] = []

    public init() {}

    /// Measures and compares the notes of one batch.
    public mutating func add(plan: FidelityNotePlan, reference: FidelityRenders.Render, ours: FidelityRenders.Render) {
        notes += plan.notes
        let rate = FidelityNotePlan.sampleRate
        for note in plan.notes {
            let lag = OnsetAlignment.lag(reference: (reference.left, reference.right), ours: (ours.left, ours.right), window: note.window, sampleRate: rate)
            lags.append(lag)
            let a = NoteAnalysis.bandLimited(
                left: reference.left, right: reference.right, window: note.window.shifted(by: lag), sampleRate: rate, cutoff: note.accurateBand)
            // Ours through FluidSynth's interpolation response: the same content compared, not the interpolation.
            let b = NoteAnalysis.bandLimited(
                left: ours.left, right: ours.right, window: note.window, sampleRate: rate, cutoff: note.accurateBand,
                response: { [interpolation = FluidSynthInterpolation(step: note.step)] in interpolation.gain(at: $0 / (rate * note.step)) })
            let width = note.envelopeSeconds
            let theirs = NoteAnalysis.measure(left: a.left, right: a.right, window: a.window, sampleRate: rate, envelopeSeconds: width)
            let mine = NoteAnalysis.measure(
                left: b.left, right: b.right, window: b.window, sampleRate: rate, partialNear: theirs.partialHertz, envelopeSeconds: width)
            comparisons.append(NoteComparison(ours: mine, reference: theirs))
        }
        renderSeconds.fluidSynth += reference.seconds
        renderSeconds.ours += ours.seconds
    }

    public var renderSeconds: (fluidSynth: Double, ours: Double) = (0, 0)
    public var passed: Int { comparisons.filter(\.passes).count }

    public func lines(verbose: Bool) -> [String] {
        var lines: [String] = []
        var presetsPassed = 0, presets = 0
        var start = 0
        while start < notes.count {
            let first = notes[start]
            var end = start
            while end < notes.count && notes[end].bank == first.bank && notes[end].program == first.program { end += 1 }
            let group = comparisons[start..<end]
            let ok = group.filter(\.passes).count
            presets += 1
            if ok == group.count { presetsPassed += 1 }
            lines.append(String(format: "%03d:%03d %-20@ %3d/%-3d", first.bank, first.program, first.presetName as NSString, ok, group.count))
            for (offset, comparison) in group.enumerated() where verbose || !comparison.passes {
                let note = notes[start + offset]
                let what = comparison.passes ? "ok" : comparison.failures.joined(separator: ", ")
                lines.append(String(format: "    key %3d vel %3d: %@", note.key, note.velocity, what as NSString))
            }
            start = end
        }
        let pitches = comparisons.compactMap(\.pitchCents).map(abs).sorted()
        let levels = comparisons.map { abs($0.levelDecibels) }.sorted()
        lines.append("notes passing: \(passed) of \(comparisons.count); presets with every note passing: \(presetsPassed) of \(presets)")
        for (name, check) in [("pitch", \NoteComparison.pitchPasses), ("level", \.levelPasses), ("attack", \.attackPasses),
                              ("decay", \.decayPasses), ("release", \.releasePasses)] {
            lines.append("  \(name) within tolerance: \(comparisons.filter { $0[keyPath: check] }.count) of \(comparisons.count)")
        }
        if !pitches.isEmpty, !levels.isEmpty {
            lines.append(String(
                format: "  |pitch| median %.3f cents, 95th %.3f; |level| median %.3f dB, 95th %.3f",
                pitches[pitches.count / 2], pitches[pitches.count * 95 / 100], levels[levels.count / 2], levels[levels.count * 95 / 100]))
        }
        let lagCounts = Dictionary(grouping: lags, by: { $0 }).mapValues(\.count).sorted { $0.value > $1.value }
        lines.append("  FluidSynth's onset after ours (frames: notes): " + lagCounts.prefix(6).map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        lines.append(String(format: "  render wall time: FluidSynth %.1f s, AudioGraph %.1f s", renderSeconds.fluidSynth, renderSeconds.ours))
        return lines
    }
}

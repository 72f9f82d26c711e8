import Atomics
import Sampler

/// Per-part (MIDI channel) readouts the render thread publishes for `status` and the render
/// summary: sounding voices, notes played, notes ignored (and why), what the part plays and its
/// peak. Relaxed atomics: the render thread is the only writer; readers see recent values.
public final class PartMeters: @unchecked Sendable {
    public static let partCount = 16
    /// Why a note-on was not played.
    public enum IgnoredReason: Int, CaseIterable, Sendable {
        /// The instrument file's `channels` leaves this channel out.
        case channelNotPlayed = 0
        /// The part's program plays nothing (`none` in the program table, or no sampler sounds).
        case noProgram = 1
    }

    private let voices = (0..<16).map { _ in UnsafeAtomic<Int>.create(0) }
    private let played = (0..<16).map { _ in UnsafeAtomic<Int>.create(0) }
    private let ignored = (0..<(16 * IgnoredReason.allCases.count)).map { _ in UnsafeAtomic<Int>.create(0) }
    /// -2 none, -1 synth, ≥ 0 sampler program index.
    private let programs = (0..<16).map { _ in UnsafeAtomic<Int>.create(-2) }
    /// Highest sample since start, as Float bits.
    private let peaks = (0..<16).map { _ in UnsafeAtomic<UInt32>.create(0) }

    init() {}

    deinit {
        for a in voices + played + ignored + programs { a.destroy() }
        for a in peaks { a.destroy() }
    }

    // MARK: Render thread

    func countPlayed(channel: Int) { played[channel].wrappingIncrement(ordering: .relaxed) }
    func countIgnored(channel: Int, reason: IgnoredReason) {
        ignored[reason.rawValue * 16 + channel].wrappingIncrement(ordering: .relaxed)
    }

    func publish(channel: Int, voices count: Int, program: PartProgram?, peak: Float) {
        voices[channel].store(count, ordering: .relaxed)
        let code: Int
        switch program {
        case .sampler(let index)?: code = index
        case .synth?, nil: code = -1
        case .none?: code = -2
        }
        programs[channel].store(code, ordering: .relaxed)
        if peak > Float(bitPattern: peaks[channel].load(ordering: .relaxed)) {
            peaks[channel].store(peak.bitPattern, ordering: .relaxed)
        }
    }

    // MARK: Any thread

    public func voices(channel: Int) -> Int { voices[channel & 15].load(ordering: .relaxed) }
    public func notesPlayed(channel: Int) -> Int { played[channel & 15].load(ordering: .relaxed) }
    public func notesIgnored(channel: Int, reason: IgnoredReason) -> Int {
        ignored[reason.rawValue * 16 + channel & 15].load(ordering: .relaxed)
    }
    /// What the part plays now.
    public func program(channel: Int) -> PartProgram {
        let code = programs[channel & 15].load(ordering: .relaxed)
        return code >= 0 ? .sampler(code) : code == -1 ? .synth : .none
    }
    /// Highest sample of the part's sub-mix (before its bus and the master stage) since start.
    public func peak(channel: Int) -> Float { Float(bitPattern: peaks[channel & 15].load(ordering: .relaxed)) }
}

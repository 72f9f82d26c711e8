import Synchronization
import Sampler

/// Per-part (MIDI channel) readouts the render thread publishes for `status` and the render
/// summary: sounding voices, notes played, notes ignored (and why), what the part plays and its
/// peak. Relaxed atomics: the render thread is the only writer; readers see recent values.
public final class PartMeters: Sendable {
    public static let partCount = 16
    /// Why a note-on was not played.
    public enum IgnoredReason: Int, CaseIterable, Sendable {
        /// The instrument file's `channels` leaves this channel out.
        case channelNotPlayed = 0
        /// The part's program plays nothing (`none` in the program table, or no sampler sounds).
        case noProgram = 1
    }

    private let voices = AtomicCells(count: 16, repeating: 0)
    private let played = AtomicCells(count: 16, repeating: 0)
    private let ignored = AtomicCells(count: 16 * IgnoredReason.allCases.count, repeating: 0)
    /// -2 none, -1 synth, ≥ 0 sampler program index.
    private let programs = AtomicCells(count: 16, repeating: -2)
    /// Highest sample since start, as Float bits.
    private let peaks = AtomicCells(count: 16, repeating: 0)
    /// The part's recent peak (falling at 20 dB/s), as Float bits.
    private let levels = AtomicCells(count: 16, repeating: 0)

    // MARK: Render thread

    @_noAllocation
    func countPlayed(channel: Int) { played.increment(channel) }
    @_noAllocation
    func countIgnored(channel: Int, reason: IgnoredReason) {
        ignored.increment(reason.rawValue * 16 + channel)
    }

    @_noAllocation
    func publish(channel: Int, voices count: Int, program: PartProgram?, peak: Float, levelFall: Float) {
        levels.store(channel, Int(max(peak, level(channel: channel) * levelFall).bitPattern))
        voices.store(channel, count)
        let code: Int
        switch program {
        case .sampler(let index)?: code = index
        case .synth?, nil: code = -1
        case .none?: code = -2
        }
        programs.store(channel, code)
        if peak > self.peak(channel: channel) {
            peaks.store(channel, Int(peak.bitPattern))
        }
    }

    // MARK: Any thread

    public func voices(channel: Int) -> Int { voices.load(channel & 15) }
    public func notesPlayed(channel: Int) -> Int { played.load(channel & 15) }
    public func notesIgnored(channel: Int, reason: IgnoredReason) -> Int {
        ignored.load(reason.rawValue * 16 + channel & 15)
    }
    /// What the part plays now.
    public func program(channel: Int) -> PartProgram {
        let code = programs.load(channel & 15)
        return code >= 0 ? .sampler(code) : code == -1 ? .synth : .none
    }
    /// Highest sample of the part's sub-mix (before its bus and the master stage) since start.
    /// The part's recent peak (its sub-mix, falling at 20 dB/s), as a gain.
    public func level(channel: Int) -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: levels.load(channel & 15))) }
    public func peak(channel: Int) -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: peaks.load(channel & 15))) }
}

/// Chooses which voice slot a new note gets, for instruments whose voices each carry an age and a
/// level. The polyphony limit counts only voices that are not already fading out; the slot pool is
/// larger than the limit so that a stolen voice can finish its short fade while the new note starts
/// (cutting it would click). Render-thread safe: plain integer bookkeeping, no allocation.
public enum VoiceAllocator {
    /// What the allocator needs to know about one slot.
    public struct SlotState {
        public var isFree: Bool
        /// Fading out after a steal or all-sound-off: no longer counts against the limit.
        public var isFading: Bool
        /// Key released (and not held by the sustain pedal): a good victim.
        public var isReleased: Bool
        /// Note-on order; smaller is older.
        public var age: UInt64
        public var level: Float
    }

    /// The decision for one note-on: the slot to use, and the voice to fade out first (if any).
    public struct Decision: Equatable {
        public var slot: Int
        public var steal: Int?
    }

    /// `limit` sounding voices at most. Victim preference: a released voice (quietest first), then
    /// the oldest held one. If every slot is busy, the quietest fading slot is reused.
    public static func allocate(count: Int, limit: Int, state: (Int) -> SlotState) -> Decision {
        var sounding = 0
        var free: Int?
        var victim: Int?
        var victimReleased = false
        var victimAge = UInt64.max
        var victimLevel = Float.infinity
        var quietestFading: Int?
        var quietestFadingLevel = Float.infinity
        for i in 0..<count {
            let s = state(i)
            if s.isFree {
                if free == nil { free = i }
                continue
            }
            if s.isFading {
                if s.level < quietestFadingLevel { quietestFadingLevel = s.level; quietestFading = i }
                continue
            }
            sounding += 1
            let better: Bool
            if s.isReleased != victimReleased {
                better = s.isReleased
            } else if s.isReleased {
                better = s.level < victimLevel
            } else {
                better = s.age < victimAge
            }
            if victim == nil || better {
                victim = i
                victimReleased = s.isReleased
                victimAge = s.age
                victimLevel = s.level
            }
        }
        let steal = sounding >= limit ? victim : nil
        if let free { return Decision(slot: free, steal: steal) }
        // No free slot: reuse the quietest fading voice, else take over the victim itself.
        if let quietestFading { return Decision(slot: quietestFading, steal: steal) }
        return Decision(slot: victim ?? 0, steal: nil)
    }
}

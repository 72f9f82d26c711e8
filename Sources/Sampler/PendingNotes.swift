/// Zones struck before their samples were read (a deferred waveform's region unprepared: a
/// program change followed at once by its first note, live). Rather than stay silent, such a zone
/// waits here, at most `SamplerConstants.unpreparedNoteWaitSeconds`, and starts at the first block
/// after the loading side publishes its frames: a note a few milliseconds late instead of a lost
/// one. Fixed capacity, allocated once; render thread only.
struct PendingNotes {
    struct Entry {
        var channel: Int
        var key: Int
        var velocity: Int
        /// The zone of the part's program that waits (an index into its `zones`).
        var zone: Int
        /// The program it was struck on: it starts only while the part still plays it.
        var program: UnsafePointer<ProgramCell>
        /// `frameClock` after which it is given up (counted silent).
        var deadline: UInt64
        /// Its note-off came while it waited: it starts, then releases at once.
        var released: Bool
        /// The note-on it belongs to (`noteOnCounter`, as `SamplerVoice.noteID`).
        var noteID: UInt64
        /// Its note is counted silent already (another of its zones was given up).
        var counted = false
    }

    static let capacity = 32

    private let entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
    }

    func deallocate() { entries.deallocate() }

    var isEmpty: Bool { count == 0 }

    subscript(i: Int) -> Entry { entries[i] }

    /// Adds `entry`; false when full (the zone stays silent).
    mutating func add(_ entry: Entry) -> Bool {
        guard count < Self.capacity else { return false }
        (entries + count).initialize(to: entry)
        count += 1
        return true
    }

    /// Removes entry `i` (the last one takes its place).
    mutating func remove(at i: Int) {
        count -= 1
        entries[i] = entries[count]
    }

    /// Marks the waiting zones of `key` on `channel` (every key when nil) released.
    func release(channel: Int, key: Int?) {
        for i in 0..<count where entries[i].channel == channel && (key == nil || entries[i].key == key) {
            entries[i].released = true
        }
    }

    /// Gives up entry `i`: its zone stays silent, and its note is counted silent in its program
    /// (once, however many of its zones are given up).
    mutating func drop(at i: Int) {
        if !entries[i].counted {
            entries[i].program.pointee.silentNotes.add(1, ordering: .relaxed)
            markCounted(noteID: entries[i].noteID)
        }
        remove(at: i)
    }

    /// Marks the waiting zones of note-on `noteID` as counted silent.
    func markCounted(noteID: UInt64) {
        for i in 0..<count where entries[i].noteID == noteID { entries[i].counted = true }
    }

    /// Gives up every waiting zone, counted silent (a new bank: their programs are leaving).
    mutating func dropAll() {
        while count > 0 { drop(at: count - 1) }
    }

    /// Forgets the zones waiting on `channel` (every channel when nil): all sound off, a reset.
    mutating func cancel(channel: Int?) {
        var i = 0
        while i < count {
            if channel == nil || entries[i].channel == channel { remove(at: i) } else { i += 1 }
        }
    }
}

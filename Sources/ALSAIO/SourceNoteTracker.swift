import MIDI

/// Remembers, per MIDI source and channel, which notes are held and whether the sustain
/// pedal is down, so that when a source disappears mid-chord (an rtpmidid session ends, a
/// keyboard is unplugged, `aconnect -d`) we can send the note-offs it never will.
///
/// Storage is allocated once in `init` (`maxSources` slots × 16 channels × 128 notes, as
/// bits); `observe` and `release(source:emit:)` never allocate, so the tracker may live on
/// the sequencer thread or the render thread. Not thread-safe: one owner at a time.
/// A note two sources both hold is released when either source goes (the engine does not
/// know who started a voice).
public struct SourceNoteTracker {
    private static let channels = 16
    private static let wordsPerChannel = 2  // 128 notes as two UInt64
    private static let wordsPerSource = channels * wordsPerChannel

    private var sources: [SequencerAddress?]
    private var heldNotes: [UInt64]
    private var sustainedChannels: [UInt16]
    /// Sources that could not be tracked because every slot held notes.
    public private(set) var untrackedSourceCount = 0

    public init(maxSources: Int = 32) {
        let slots = max(maxSources, 1)
        sources = Array(repeating: nil, count: slots)
        heldNotes = Array(repeating: 0, count: slots * Self.wordsPerSource)
        sustainedChannels = Array(repeating: 0, count: slots)
    }

    /// Updates the held-note state from one message `source` sent.
    public mutating func observe(_ message: MIDIMessage, from source: SequencerAddress) {
        switch message.normalized {
        case .noteOn(let channel, let note, _):
            guard let slot = slot(for: source, create: true) else { return }
            let (word, bit) = Self.position(slot, channel, note)
            heldNotes[word] |= bit
        case .noteOff(let channel, let note, _):
            guard let slot = slot(for: source, create: false) else { return }
            let (word, bit) = Self.position(slot, channel, note)
            heldNotes[word] &= ~bit
        case .controlChange(let channel, MIDIController.sustainPedal, let value):
            let channelBit = UInt16(1) << UInt16(channel & 0x0F)
            if value >= 64 {
                guard let slot = slot(for: source, create: true) else { return }
                sustainedChannels[slot] |= channelBit
            } else if let slot = slot(for: source, create: false) {
                sustainedChannels[slot] &= ~channelBit
            }
        default:
            return
        }
    }

    /// Number of notes `source` holds now (pedal-sustained notes whose keys are up not included).
    public func heldNoteCount(for source: SequencerAddress) -> Int {
        guard let slot = sources.firstIndex(of: source) else { return 0 }
        let base = slot * Self.wordsPerSource
        return (base..<base + Self.wordsPerSource).reduce(0) { $0 + heldNotes[$1].nonzeroBitCount }
    }

    /// Forgets `source` and calls `emit` with what silences it: a note-off (velocity 0) for
    /// every note it holds, then — with `liftingPedal` — a sustain-off (CC64 = 0) for every
    /// channel where its pedal is down. Without `liftingPedal` the pedal stays as the source
    /// left it: a one-shot command (`audiograph cc 64 127`) set it to stay down after exiting.
    /// Channels ascending, notes ascending. No allocation.
    public mutating func release(source: SequencerAddress, liftingPedal: Bool = true, emit: (MIDIMessage) -> Void) {
        guard let slot = sources.firstIndex(of: source) else { return }
        for channel in 0..<Self.channels {
            for half in 0..<Self.wordsPerChannel {
                let word = slot * Self.wordsPerSource + channel * Self.wordsPerChannel + half
                var bits = heldNotes[word]
                while bits != 0 {
                    let note = half * 64 + bits.trailingZeroBitCount
                    emit(.noteOff(channel: UInt8(channel), note: UInt8(note), velocity: 0))
                    bits &= bits - 1
                }
                heldNotes[word] = 0
            }
        }
        let sustained = liftingPedal ? sustainedChannels[slot] : 0
        for channel in 0..<Self.channels where sustained & (UInt16(1) << UInt16(channel)) != 0 {
            emit(.controlChange(channel: UInt8(channel), controller: MIDIController.sustainPedal, value: 0))
        }
        sustainedChannels[slot] = 0
        sources[slot] = nil
    }

    /// Control-thread convenience: the messages `release(source:emit:)` would emit.
    public mutating func releaseMessages(for source: SequencerAddress, liftingPedal: Bool = true) -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        release(source: source, liftingPedal: liftingPedal) { messages.append($0) }
        return messages
    }

    /// The slot tracking `source`; with `create`, claims a free slot or one whose source
    /// holds nothing (a source that went quiet need not be remembered).
    private mutating func slot(for source: SequencerAddress, create: Bool) -> Int? {
        if let slot = sources.firstIndex(of: source) { return slot }
        guard create else { return nil }
        for slot in sources.indices where sources[slot] == nil || isIdle(slot) {
            clear(slot)
            sources[slot] = source
            return slot
        }
        untrackedSourceCount += 1
        return nil
    }

    private func isIdle(_ slot: Int) -> Bool {
        guard sustainedChannels[slot] == 0 else { return false }
        let base = slot * Self.wordsPerSource
        return !(base..<base + Self.wordsPerSource).contains { heldNotes[$0] != 0 }
    }

    private mutating func clear(_ slot: Int) {
        let base = slot * Self.wordsPerSource
        for word in base..<base + Self.wordsPerSource { heldNotes[word] = 0 }
        sustainedChannels[slot] = 0
    }

    private static func position(_ slot: Int, _ channel: UInt8, _ note: UInt8) -> (word: Int, bit: UInt64) {
        let note = Int(note & 0x7F)
        let word = slot * wordsPerSource + Int(channel & 0x0F) * wordsPerChannel + note / 64
        return (word, UInt64(1) << UInt64(note % 64))
    }
}

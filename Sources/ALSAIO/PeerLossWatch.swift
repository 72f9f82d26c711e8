/// Tells an underrun from a peer that is gone, for a PCM whose other end may be a sound server
/// (the `pipewire`, `pulse` or `jack` plugin) rather than a card. What the servers do when they
/// die under a writer (docs/AUDIO-SERVERS.md):
/// - PipeWire: every write fails with EPIPE, recovering "succeeds", and the next write fails
///   again at once — treated as underruns, a busy loop that never reattaches;
/// - JACK (ALSA `jack` plugin): the writer's poll never returns.
/// A card cannot do either: after a recovery the stream is prepared and takes frames until it
/// starts, so an xrun with nothing transferred since the last recovery means the peer is gone;
/// and a card consumes a period every period, so no room for `stallLimitNanoseconds` (several
/// buffers, at least two seconds) means it is gone too. Plain value; render thread, no allocation.
package struct PeerLossWatch: Sendable, Equatable {
    /// How long a transfer may find no room (no data) before the device counts as lost.
    package let stallLimitNanoseconds: UInt64
    private var recoveredWithoutProgress = false
    /// When the current wait for room began; nil while frames are moving.
    private var stalledSince: UInt64?

    /// The limit for a buffer of `bufferFrames` at `sampleRateHz`: four buffers, at least
    /// `floorNanoseconds`. A live server can stall its clients for over a second on a loaded
    /// machine (the `pulse` plugin's thread is not real-time) and then play on, and a false alarm
    /// costs a reopen; a dead one is told by its error codes at once, so only a hang waits this long.
    package init(bufferFrames: Int, sampleRateHz: Int, floorNanoseconds: UInt64 = 2_000_000_000) {
        let buffer = UInt64(max(bufferFrames, 1)) * 1_000_000_000 / UInt64(max(sampleRateHz, 1))
        stallLimitNanoseconds = max(4 * buffer, floorNanoseconds)
    }

    /// Frames moved: the peer is alive.
    @inline(__always)
    package mutating func transferred() {
        recoveredWithoutProgress = false
        stalledSince = nil
    }

    /// An xrun (EPIPE): true when it is the second with nothing transferred since the recovery of
    /// the first — the peer is gone; false for an ordinary xrun, which the caller recovers.
    package mutating func xrunMeansLost() -> Bool {
        if recoveredWithoutProgress { return true }
        recoveredWithoutProgress = true
        return false
    }

    /// The transfer found no room (EAGAIN) at `now`, or a wait for room timed out: true once no
    /// frame has moved for `stallLimitNanoseconds`.
    package mutating func stalled(now: UInt64) -> Bool {
        guard let since = stalledSince else {
            stalledSince = now
            return false
        }
        return now &- since >= stallLimitNanoseconds
    }

    /// How long the next wait for room may block, in milliseconds, so a dead peer is noticed on time.
    package var waitMilliseconds: Int32 { Int32(clamping: stallLimitNanoseconds / 1_000_000) }
}

import ALSAIO

/// The control thread's side of a lost playback device (unplugged, driver gone): while the audio
/// thread is stopped, keep the engine running at the period's pace into nowhere — MIDI keeps being
/// applied, so a note-off sent meanwhile is not lost — and try to reopen the device with back-off
/// (`backoff`: 100 ms doubling to 5 s for a card, to 1 s for a sound server). Plain value; call
/// `service` every few milliseconds.
struct OutageRecovery {
    private let periodNanoseconds: UInt64
    private var backoff: ReopenBackoff
    private var periodStart: UInt64
    private var nextAttempt: UInt64

    /// Starts the outage: `loop`'s lost device is closed here.
    init<Output, Input>(_ loop: AudioLoop<Output, Input>, now: UInt64, backoff: ReopenBackoff = ReopenBackoff()) {
        self.backoff = backoff
        loop.dropLostOutput()
        periodNanoseconds = loop.periodNanoseconds
        periodStart = now
        nextAttempt = now + UInt64(self.backoff.nextDelaySeconds() * 1e9)
    }

    /// Renders the periods that fell due and, when an attempt is due, tries `reopen`. Returns the
    /// reopened device (already installed in `loop`), or nil while the outage lasts.
    mutating func service<Output, Input>(_ loop: AudioLoop<Output, Input>, now: UInt64, reopen: () -> Output?) -> Output? {
        while periodStart + periodNanoseconds <= now {
            let end = periodStart + periodNanoseconds
            loop.renderWithoutOutput(periodStart: periodStart, now: end)
            periodStart = end
        }
        guard now >= nextAttempt else { return nil }
        guard let device = reopen() else {
            nextAttempt = now + UInt64(backoff.nextDelaySeconds() * 1e9)
            return nil
        }
        loop.replaceOutput(device)
        return device
    }
}

import ALSAIO

/// The control thread's side of a lost device (unplugged, driver gone, audio server down): while
/// the driver is stopped, keep the engine running at the period's pace into nowhere — MIDI keeps
/// being applied, so a note-off sent meanwhile is not lost — and try to reopen the device with
/// back-off (`backoff`: 100 ms doubling to 5 s for a card, to 1 s for a sound server). Plain value,
/// for any driver; call `service` every few milliseconds.
public struct OutageRecovery {
    private let renderer: PeriodRenderer
    private var backoff: ReopenBackoff
    private var periodStart: UInt64
    private var nextAttempt: UInt64

    /// Starts the outage at `now` (the driver has let go of its device).
    public init(renderer: PeriodRenderer, now: UInt64, backoff: ReopenBackoff = ReopenBackoff()) {
        self.renderer = renderer
        self.backoff = backoff
        periodStart = now
        nextAttempt = now + UInt64(self.backoff.nextDelaySeconds() * 1e9)
    }

    /// Renders the periods that fell due and, when an attempt is due, tries `reopen`. Returns the
    /// reopened device, or nil while the outage lasts.
    public mutating func service<Device>(now: UInt64, reopen: () -> Device?) -> Device? {
        let periodNanoseconds = renderer.periodNanoseconds
        while periodStart + periodNanoseconds <= now {
            let end = periodStart + periodNanoseconds
            renderer.renderWithoutOutput(periodStart: periodStart, now: end)
            periodStart = end
        }
        guard now >= nextAttempt else { return nil }
        guard let device = reopen() else {
            nextAttempt = now + UInt64(backoff.nextDelaySeconds() * 1e9)
            return nil
        }
        return device
    }
}

/// When each period starts, for placing MIDI by arrival time (render thread only; a value type,
/// no allocation).
///
/// The loop wakes when the device has room for a period, and that wake-up is late by a varying
/// amount: timer-driven drivers signal on the next timer tick (4 ms on a 250 Hz kernel), and the
/// scheduler adds its own delay. Taking wake-up times as period boundaries turns that lateness
/// straight into onset jitter (measured in the ALSA rig: p99 9–11 ms with a 21 ms period). This
/// clock instead advances exactly one period per period and follows the earliest wake-ups: a
/// wake-up earlier than predicted means the prediction was late, so it snaps to it; a later one
/// only nudges it (a late wake-up is mostly the driver or the scheduler, not the audio clock).
/// A wake-up more than a period late (an xrun, a stall) starts the clock afresh.
public struct PeriodClock: Sendable {
    public let periodNanoseconds: Double
    /// Start of the current period, CLOCK_MONOTONIC nanoseconds.
    public private(set) var boundary: Double

    /// How much of a late wake-up moves the clock: small enough to ignore tick and scheduling
    /// lateness, large enough to follow a device clock a few hundred ppm off CLOCK_MONOTONIC.
    public static var lateCorrectionGain: Double { 1.0 / 64 }

    public init(periodNanoseconds: Double, now: UInt64) {
        self.periodNanoseconds = periodNanoseconds
        boundary = Double(now)
    }

    /// Once per period, with the time the loop woke up for it: moves to the next boundary.
    @_noAllocation
    public mutating func advance(wokeAt now: UInt64) {
        let predicted = boundary + periodNanoseconds
        let lateness = Double(now) - predicted
        if lateness < 0 || lateness > periodNanoseconds {
            boundary = Double(now)
        } else {
            boundary = predicted + lateness * Self.lateCorrectionGain
        }
    }
}

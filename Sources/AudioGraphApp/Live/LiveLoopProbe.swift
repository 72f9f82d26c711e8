import ALSAIO
import AudioFiles
import Engine
import MIDI

/// The live loop's per-period work driven by hand: exactly what the audio thread does each period
/// (input, MIDI placement, render, output) minus the wait for a device — the output discards and
/// the input is a looped buffer. For tests that count allocations without a sound card.
public final class LiveLoopProbe {
    private let loop: AudioLoop
    private var clock: PeriodClock

    /// Control thread: builds the loop around `engine` (whose maxFrames must be ≥ `periodFrames`).
    public init(engine: AudioEngine, periodFrames: Int, input: [Float]?) {
        let source = input.map {
            FileInput(DecodedAudio(sampleRate: engine.configuration.sampleRate, channels: [$0], frameCount: $0.count,
                                   metadata: SampleMetadata(), formatDescription: "probe input"))
        }
        loop = AudioLoop(engine: engine, inbox: MIDIInbox(log: { _ in }), periodFrames: periodFrames,
                         output: DiscardingOutput(), input: source, reopenOutput: nil)
        clock = PeriodClock(periodNanoseconds: Double(loop.periodNanoseconds), now: MonotonicClock.nanoseconds())
    }

    /// The sequencer thread's side: a message arriving now, from `source`.
    public func receive(_ message: MIDIMessage, fromClient client: UInt8 = 20) {
        loop.inbox.receive(.message(message, source: SequencerAddress(client: client, port: 0),
                                    arrivalNanoseconds: MonotonicClock.nanoseconds()))
    }

    /// The sequencer thread's side: `client` went away (its held notes are released).
    public func sourceGone(client: UInt8 = 20) {
        loop.inbox.receive(.sourceGone(SequencerAddress(client: client, port: 0)))
    }

    /// The audio thread's side: `count` periods.
    public func runPeriods(_ count: Int) {
        for _ in 0..<count { loop.runPeriod(clock: &clock) }
    }
}

/// An output that takes every period at once and keeps nothing.
final class DiscardingOutput: AudioOutput {
    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PCMTransferStatus { .complete }
    var xrunCount: Int { 0 }
}

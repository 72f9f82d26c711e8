import ALSAIO
import Engine
import LiveLoop
import Synchronization
import MemberwiseInit

/// What a running instrument plays on, in words for `status`: set at start, changed by the
/// control thread when a device is reopened or renegotiated.
@PublicInit
public struct DeviceDescriptions: Sendable, Equatable {
    public var playback: String
    /// nil without a mic/line input.
    public var capture: String?
    /// The render thread's scheduling (`RealtimeStatus`).
    public var realtime: String
    /// The sampler preset's file name, or "none".
    public var sampler: String
    /// The web panel's address (and token, when it needs one); nil without a panel.
    public var panel: String? = nil
    /// What the playback device goes to: a sound server and how (`PipeWire (ALSA pipewire plugin)`,
    /// `JACK (native client)`), or `none (…)`.
    public var audioServer: String? = nil
}

/// Builds the `StatusSnapshot` of a running instrument from what its threads publish: the
/// renderer's figures and MIDI counters, the engine's meters and readouts (atomics), and the
/// device descriptions. Any thread; never waits on the render thread.
public final class StatusSource: Sendable {
    private let renderer: PeriodRenderer
    private let descriptions: Mutex<DeviceDescriptions>
    /// The sequencer client, for the sources connected to it; nil without a sequencer.
    private let sequencer: SequencerClient?

    public init(renderer: PeriodRenderer, devices: DeviceDescriptions, sequencer: SequencerClient? = nil) {
        self.renderer = renderer
        descriptions = Mutex(devices)
        self.sequencer = sequencer
    }

    /// The devices as described now.
    public var devices: DeviceDescriptions { descriptions.withLock { $0 } }

    /// Control thread: a device was reopened, renegotiated or started.
    public func update(_ change: (inout DeviceDescriptions) -> Void) { descriptions.withLock { change(&$0) } }

    public func snapshot() -> StatusSnapshot {
        let engine = renderer.controller, stats = renderer.stats, events = renderer.events, inbox = renderer.inbox
        let devices = self.devices
        let m = engine.meters, r = engine.micReadouts
        let periodNanoseconds = Double(renderer.currentPeriodNanoseconds.load(ordering: .relaxed))
        let pitch = r.pitch.value
        let hasInput = devices.capture != nil
        return StatusSnapshot(
            outputPeakDecibels: [m.outputPeakDecibels.left, m.outputPeakDecibels.right],
            outputRMSDecibels: [m.outputRMSDecibels.left, m.outputRMSDecibels.right],
            inputPeakDecibels: hasInput ? [Double(r.inputPeakDecibels.left.value), Double(r.inputPeakDecibels.right.value)] : nil,
            inputRMSDecibels: hasInput ? [Double(r.inputRMSDecibels.left.value), Double(r.inputRMSDecibels.right.value)] : nil,
            detectedPitchHz: pitch.voiced ? pitch.frequencyHz : nil,
            pitchConfidence: pitch.voiced ? pitch.confidence : nil,
            dominantFrequencyHz: r.effect == .fft ? Double(r.dominantFrequencyHz.value) : nil,
            voices: m.activeVoices,
            xruns: stats.xruns.load(ordering: .relaxed),
            dspLoadPercent: 100 * Double(stats.lastRenderNanoseconds.load(ordering: .relaxed)) / periodNanoseconds,
            worstDspLoadPercent: 100 * Double(stats.worstRenderNanoseconds.load(ordering: .relaxed)) / periodNanoseconds,
            missedDeadlines: stats.missedDeadlines.load(ordering: .relaxed),
            midiEventsDropped: inbox.rings.live.droppedCount, midiInputOverruns: inbox.kernelOverruns.load(ordering: .relaxed),
            midiDeferredPeriods: events.deferredPeriods.load(ordering: .relaxed),
            midiEventsCoalesced: events.coalesced.load(ordering: .relaxed),
            midiNoteOnsSkipped: events.skippedNoteOns.load(ordering: .relaxed),
            nonFiniteBlocks: m.nonFiniteBlocks, runawayVoices: m.runawayVoices,
            regionsAwaitingLevels: engine.programBank?.programs.reduce(0) { $0 + $1.regionsAwaitingLevels } ?? 0,
            silentNotes: engine.programBank?.programs.reduce(0) { $0 + $1.silentNotes } ?? 0,
            playback: devices.playback, capture: devices.capture, realtime: devices.realtime,
            sampler: devices.sampler,
            parts: PartStatus.collect(engine), buses: BusStatus.collect(engine),
            limiterReductionDecibels: m.limiterReductionDecibels,
            parameters: Dictionary(uniqueKeysWithValues: engine.parameters.descriptors.indices.map {
                (engine.parameters.descriptors[$0].name, engine.parameters.value($0))
            }),
            panel: devices.panel, audioServer: devices.audioServer,
            midiSources: sequencer?.connectedSources.map { "\($0.clientName):\($0.portName) (\($0.address))" })
    }
}

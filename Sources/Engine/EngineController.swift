import Synchronization
import MicEffects
import Sampler

/// The engine as every thread but the render thread sees it: parameters, meters, part meters,
/// mic readouts, program submission, the shutdown fade and the control-thread work. Everything
/// here is an atomic, a mailbox or immutable, so it is `Sendable`; the render object
/// (`AudioEngine`) is not, and stays with the thread that renders.
///
/// Live, the control socket and status threads get only this object (`AudioEngine.controller`);
/// the render object is handed to the audio thread.
public final class EngineController: Sendable {
    public let configuration: EngineConfiguration
    /// Every adjustable value, by name; any thread.
    public let parameters: ParameterTable
    /// Output peak/RMS, voices, idle, non-finite blocks.
    public let meters = EngineMeters()
    /// Per-part voices, notes, ignored notes, program and peak.
    public let partMeters = PartMeters()
    /// Mic/line input meters, detected pitch, the effect heard.
    public let micReadouts: MicReadouts
    /// The bank the engine started with (names of what the parts play).
    public let programBank: ProgramBank?
    /// Which channels play (notes on others are counted in `partMeters` and ignored).
    public let routing: ChannelRouting
    /// Frames by which the output lags the input and MIDI (the master limiter's look-ahead).
    public let latencyFrames: Int

    /// The sampler's bank hand-over (`submit`, `collectGarbage`).
    public let samplerBanks: SamplerBankInbox
    let micBuilder: MicEffectBuilder
    let ids: EngineParameters
    /// Set to fade the output to silence (10 ms) before the audio stops; read at block start.
    let fadeOutRequested = Atomic<Bool>(false)

    init(configuration: EngineConfiguration, parameters: ParameterTable, ids: EngineParameters, programBank: ProgramBank?,
         routing: ChannelRouting, latencyFrames: Int, samplerBanks: SamplerBankInbox, mic: MicChain) {
        self.configuration = configuration
        self.parameters = parameters
        self.ids = ids
        self.programBank = programBank
        self.routing = routing
        self.latencyFrames = latencyFrames
        self.samplerBanks = samplerBanks
        micBuilder = mic.builder
        micReadouts = mic.readouts
    }

    /// Fades the master output to silence within 10 ms (shutdown without a click). Any thread.
    public func fadeOut() { fadeOutRequested.store(true, ordering: .relaxed) }

    /// Makes `bank` what the parts play (the previous bank's voices fade out in 3 ms). Control thread.
    public func submit(_ bank: ProgramBank) { samplerBanks.submit(bank) }

    /// Work that must stay off the render thread but follows it closely: building the mic effect
    /// the parameters select (FFT plans are made on first use), releasing replaced sampler
    /// programs. Call from a control thread every ~10 ms live, between blocks offline, and once
    /// before the first block (the instrument loader does).
    public func performControlWork() {
        samplerBanks.collectGarbage()
        micBuilder.prepare(MicEffectKind(rawValue: Int(parameters.value(ids.mic.effect))) ?? .off)
        if parameters.value(ids.followEnabled) >= 0.5 { micBuilder.preparePitchTracking() }
        micBuilder.prepareRequested()
    }
}

import Synchronization
import DSP
import Instruments
import MIDI
import MicEffects
import Sampler
import MemberwiseInit

/// Sizes fixed at prepare time.
@PublicInit
public struct EngineConfiguration: Sendable {
    public var sampleRate: Double = 48000
    /// The largest block `render` will be asked for.
    public var maxFrames: Int = 1024
    public var maxSynthVoices: Int = 64
    public var maxSamplerVoices: Int = 128
    /// `.high` (windowed sinc) for offline renders; `.realtime` (4-point) live.
    public var samplerQuality: InterpolationQuality = .realtime
    /// Threads that may render the sampler's parts at once (1: the render thread alone; more
    /// for offline renders, whose helpers call `helpSampler`). The output does not depend on it.
    public var samplerWorkers: Int = 1
}

/// What the instrument plays, decided on the control thread before the engine is built.
@PublicInit
public struct EngineContent: Sendable {
    public var loops: [BusID: LoopSample] = [:]
    public var routing: ChannelRouting = ChannelRouting()
    public var controls: [ControlMapping] = []
    /// The parts' sounds: sampler programs, program table, starting programs, drum parts. nil:
    /// no sampler sounds, every part plays the sine synth.
    public var programBank: ProgramBank? = nil

    /// One sampler program on every part except channel 2 (index 1), which plays the synth: the
    /// single-program instrument (tests, `--preset` without a program table).
    public init(loops: [BusID: LoopSample] = [:], routing: ChannelRouting = ChannelRouting(), controls: [ControlMapping] = [],
                samplerProgram: SamplerProgram) {
        self.init(loops: loops, routing: routing, controls: controls, programBank: .single(samplerProgram, synthChannels: [1]))
    }
}

/// The audio graph as the render thread owns it: sources (loop players, mic chain, synth,
/// sampler) each on a mixer bus with gain, mute and pan; the file player through its own
/// high-pass; the send effects; then the master stage (low-pass, high-pass, gain, limiter,
/// meters). One `render` call per block, the same live and offline.
///
/// Not `Sendable`: it belongs to the thread that renders (the audio thread live, which it is
/// handed to; the renderer's or the test's thread offline). Every other thread works through
/// `controller`, which holds nothing but atomics, mailboxes and immutable values. Its jobs are
/// split: `ControlMapper` (mapped MIDI → parameters), `ParameterApplier` (parameters → units),
/// `PitchFollowerLink` (mic pitch → synth); the engine keeps the graph and the MIDI routing.
public final class AudioEngine {
    /// Everything other threads may touch: parameters, meters, readouts, programs, fade-out.
    public let controller: EngineController

    /// Strong references keeping every unit alive; the render path never touches this array, it
    /// calls through the `RenderRef`s below (see `RenderRef` for why).
    private let owners: [AnyObject]
    let synth: RenderRef<SineSynth>
    let sampler: RenderRef<SamplerInstrument>
    let mic: RenderRef<MicChain>
    let master: RenderRef<MasterStage>
    /// Reverb and chorus on the master, fed by every part's CC91/CC93 sends.
    let sendEffects: RenderRef<SendEffects>
    let outputMeters: RenderRef<EngineMeters>
    let partMeterCells: RenderRef<PartMeters>
    let table: RenderRef<ParameterTable>
    let fadeRequest: RenderRef<EngineController>
    /// One per `BusID`, in order.
    let buses: UnsafeMutableBufferPointer<MixerBus>
    /// Indexed by `BusID.rawValue`; nil where the bus has no loop player.
    let loopPlayers: UnsafeMutableBufferPointer<RenderRef<LoopPlayer>?>
    let routing: ChannelRouting
    /// Per-part voice counts gathered at block end (render thread scratch).
    let partVoiceCounts: UnsafeMutablePointer<Int>
    let controls: ControlMapper
    var applier: ParameterApplier
    let follower: PitchFollowerLink
    var fileHighPass: SmoothedFilter
    /// `send.reverb`/`chorus` are off for a bus while it is muted or `fx.enabled` is off.
    let sendSwitches: (fxEnabled: Int, busMute: UnsafeMutablePointer<Int>)
    /// `velocity.curve`, applied to every note-on before it reaches an instrument.
    var velocityCurve = VelocityCurve.linear
    let scratchBlock: StereoBlock
    let maxFrames: Int
    let sampleRate: Double
    /// Meters already show silence (set while idle blocks are skipped).
    var publishedSilence = false

    /// Builds the graph and allocates every buffer. Control thread.
    public init(configuration: EngineConfiguration, content: EngineContent = EngineContent()) throws(ParameterError) {
        let rate = configuration.sampleRate, frames = configuration.maxFrames
        maxFrames = frames
        sampleRate = rate
        let builder = ParameterTableBuilder()
        let ids = EngineParameters(table: builder, maxSynthVoices: configuration.maxSynthVoices, maxSamplerVoices: configuration.maxSamplerVoices)
        let parameters = builder.seal()
        let synth = SineSynth(sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSynthVoices)
        let sampler = SamplerInstrument(
            sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSamplerVoices, workers: configuration.samplerWorkers)
        sampler.quality = configuration.samplerQuality
        if let bank = content.programBank { sampler.submit(bank) }
        let mic = MicChain(sampleRate: rate, maxFrames: frames)
        let master = MasterStage(sampleRate: rate, maxFrames: frames)
        let sendEffects = SendEffects(sampleRate: rate, maxFrames: frames)
        let players = BusID.allCases.map { bus in content.loops[bus].map { LoopPlayer(sample: $0, sampleRate: rate) } }
        let scratch = StereoBuffer(capacity: frames)
        controller = EngineController(
            configuration: configuration, parameters: parameters, ids: ids, programBank: content.programBank, routing: content.routing,
            latencyFrames: master.limiter.latencyFrames, samplerBanks: sampler.bankInbox, mic: mic)
        let busBuffers = BusID.allCases.map { _ in StereoBuffer(capacity: frames) }
        owners = [synth, sampler, mic, master, sendEffects, scratch, controller] + players.compactMap { $0 } + busBuffers
        self.synth = RenderRef(synth)
        self.sampler = RenderRef(sampler)
        self.mic = RenderRef(mic)
        self.master = RenderRef(master)
        self.sendEffects = RenderRef(sendEffects)
        outputMeters = RenderRef(controller.meters)
        partMeterCells = RenderRef(controller.partMeters)
        table = RenderRef(parameters)
        fadeRequest = RenderRef(controller)
        buses = .allocate(capacity: BusID.allCases.count)
        _ = buses.initialize(from: busBuffers.map { MixerBus(sampleRate: rate, buffer: $0) })
        loopPlayers = .allocate(capacity: BusID.allCases.count)
        _ = loopPlayers.initialize(from: players.map { $0.map(RenderRef.init) })
        routing = content.routing
        controls = try ControlMapper(content.controls, parameters: parameters, loopPlay: ids.loopPlay)
        applier = ParameterApplier(ids: ids, parameters: parameters)
        follower = PitchFollowerLink(ids: ids, parameters: parameters, readouts: mic.readouts)
        let mutes = UnsafeMutablePointer<Int>.allocate(capacity: BusID.allCases.count)
        mutes.initialize(from: ids.buses.map(\.mute), count: BusID.allCases.count)
        sendSwitches = (ids.fx.enabled, mutes)
        fileHighPass = SmoothedFilter(kind: .highPass, sampleRate: rate, cutoffHz: 800, resonanceDecibels: 0, enabled: true)
        scratchBlock = scratch.block(frames: frames)
        partVoiceCounts = .allocate(capacity: PartMeters.partCount)
        partVoiceCounts.initialize(repeating: 0, count: PartMeters.partCount)
    }

    deinit {
        partVoiceCounts.deallocate()
        sendSwitches.busMute.deallocate()
        buses.deinitialize().deallocate()
        loopPlayers.deallocate()
    }

    /// Renders one block into `output` (overwritten), applying `events` at their frame offsets.
    /// `input` is the mic/line signal for this block, if any. `output.frames` ≤ `maxFrames`.
    /// Render thread: allocation-free and lock-free.
    @_noAllocation
    public func render(output: StereoBlock, input: StereoBlock? = nil, events: UnsafeBufferPointer<TimedMIDIMessage>) {
        let maxFrames = maxFrames
        precondition(output.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = output.frames
        let out = StereoBlock(left: output.left, right: output.right, frames: frames)
        applier.applyIfChanged(to: self)
        applyLiveInputs()
        sampler { $0.adoptPendingBank() }  // before `dispatch` asks it what a part plays
        // Nothing can sound and nothing arrives: skip the DSP (an idle instrument costs ~nothing).
        let idle = isIdle
        if events.isEmpty && input == nil && idle {
            out.clear()
            if !publishedSilence {
                outputMeters {
                    $0.publish(peak: (-160, -160), rms: (-160, -160), voices: 0)
                    $0.publish(idle: true)
                    $0.publishSilentBusesAndLimiter()
                }
                publishPartMeters(levelFall: 0)
                publishedSilence = true
            }
            return
        }
        publishedSilence = false
        for i in buses.indices { buses[i].isActive = false }
        sendEffects { $0.begin(frames: frames) }

        // Split the block at event frames so every event lands on its exact frame.
        var position = 0
        var next = 0
        while position < frames {
            while next < events.count, events[next].frameOffset <= position {
                dispatch(events[next].message, at: position)
                next += 1
            }
            let end = next < events.count ? min(max(events[next].frameOffset, position + 1), frames) : frames
            renderSources(from: position, count: end - position, blockFrames: frames)
            position = end
        }
        while next < events.count {
            dispatch(events[next].message, at: frames - 1)
            next += 1
        }
        renderMic(input: input, frames: frames)
        mixAndMaster(into: out)
    }

    /// Convenience for callers without events.
    public func render(output: StereoBlock, input: StereoBlock? = nil) {
        render(output: output, input: input, events: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// True when no source can make sound: rendering then costs almost nothing. Render thread (or
    /// between blocks offline); other threads read `controller.meters.isIdle`.
    public var isIdle: Bool {
        @_noAllocation get {
            guard synth({ $0.isSilent }), sampler({ $0.isSilent }), !master({ $0.isRinging }), !sendEffects({ $0.isRinging }) else {
                return false
            }
            for player in loopPlayers { if let player, !player({ $0.isSilent }) { return false } }
            return true
        }
    }

    /// Voices sounding in the synth and in the sampler (including ones fading out). Render
    /// thread; other threads read `controller.meters.activeVoices`.
    public var activeVoiceCounts: (synth: Int, sampler: Int) { (synth { $0.activeVoiceCount }, sampler { $0.activeVoiceCount }) }
}

extension AudioEngine {
    // What offline callers and tests, which render on their own thread, reach through the
    // controller; the controller itself is what other threads get.
    public var configuration: EngineConfiguration { controller.configuration }
    public var parameters: ParameterTable { controller.parameters }
    public var meters: EngineMeters { controller.meters }
    public var partMeters: PartMeters { controller.partMeters }
    public var programBank: ProgramBank? { controller.programBank }
    public var latencyFrames: Int { controller.latencyFrames }
    public func fadeOut() { controller.fadeOut() }
    public func performControlWork() { controller.performControlWork() }

    /// Helper thread `worker` (1 ..< `configuration.samplerWorkers`) of an offline render: the
    /// number of the sampler span posted last; when it changes, `helpSampler` takes part in it.
    public var postedSamplerSpan: Int { sampler { $0.postedSpan } }

    /// Helper thread: renders the sampler parts of span `span` it can still claim; returns how many.
    @discardableResult
    public func helpSampler(span: Int, worker: Int) -> Int { sampler { $0.help(span: span, worker: worker) } }
}

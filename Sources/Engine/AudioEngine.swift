import Synchronization
import DSP
import Instruments
import MIDI
import MicEffects
import Sampler

/// Sizes fixed at prepare time.
public struct EngineConfiguration: Sendable {
    public var sampleRate: Double
    /// The largest block `render` will be asked for.
    public var maxFrames: Int
    public var maxSynthVoices: Int
    public var maxSamplerVoices: Int
    /// `.high` (windowed sinc) for offline renders; `.realtime` (4-point) live.
    public var samplerQuality: InterpolationQuality

    public init(sampleRate: Double = 48000, maxFrames: Int = 1024, maxSynthVoices: Int = 64, maxSamplerVoices: Int = 128,
                samplerQuality: InterpolationQuality = .realtime) {
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        self.maxSynthVoices = maxSynthVoices
        self.maxSamplerVoices = maxSamplerVoices
        self.samplerQuality = samplerQuality
    }
}

/// What the instrument plays, decided on the control thread before the engine is built.
public struct EngineContent: Sendable {
    public var loops: [BusID: LoopSample]
    public var routing: ChannelRouting
    public var controls: [ControlMapping]
    /// The parts' sounds: sampler programs, program table, starting programs, drum parts. nil:
    /// no sampler sounds, every part plays the sine synth.
    public var programBank: ProgramBank?

    public init(loops: [BusID: LoopSample] = [:], routing: ChannelRouting = ChannelRouting(), controls: [ControlMapping] = [],
                programBank: ProgramBank? = nil) {
        self.programBank = programBank
        self.loops = loops
        self.routing = routing
        self.controls = controls
    }

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

    let synth: SineSynth
    let sampler: SamplerInstrument
    let mic: MicChain
    var buses: [MixerBus]
    /// Indexed by `BusID.rawValue`; nil where the bus has no loop player.
    let loopPlayers: [LoopPlayer?]
    let routing: ChannelRouting
    /// Per-part voice counts gathered at block end (render thread scratch).
    let partVoiceCounts: UnsafeMutablePointer<Int>
    let controls: ControlMapper
    var applier: ParameterApplier
    let follower: PitchFollowerLink
    var fileHighPass: SmoothedFilter
    let master: MasterStage
    /// Reverb and chorus on the master, fed by every part's CC91/CC93 sends.
    let sendEffects: SendEffects
    /// `velocity.curve`, applied to every note-on before it reaches an instrument.
    var velocityCurve = VelocityCurve.linear
    let scratch: StereoBuffer
    let maxFrames: Int
    /// Meters already show silence (set while idle blocks are skipped).
    var publishedSilence = false

    /// Builds the graph and allocates every buffer. Control thread.
    public init(configuration: EngineConfiguration, content: EngineContent = EngineContent()) throws(ParameterError) {
        let rate = configuration.sampleRate, frames = configuration.maxFrames
        maxFrames = frames
        let parameters = ParameterTable()
        let ids = EngineParameters(table: parameters, maxSynthVoices: configuration.maxSynthVoices, maxSamplerVoices: configuration.maxSamplerVoices)
        synth = SineSynth(sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSynthVoices)
        sampler = SamplerInstrument(sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSamplerVoices)
        sampler.quality = configuration.samplerQuality
        if let bank = content.programBank { sampler.submit(bank) }
        mic = MicChain(sampleRate: rate, maxFrames: frames)
        buses = BusID.allCases.map { _ in MixerBus(sampleRate: rate, maxFrames: frames) }
        loopPlayers = BusID.allCases.map { bus in content.loops[bus].map { LoopPlayer(sample: $0, sampleRate: rate) } }
        routing = content.routing
        controls = try ControlMapper(content.controls, parameters: parameters, loopPlay: ids.loopPlay)
        applier = ParameterApplier(ids: ids, parameters: parameters)
        follower = PitchFollowerLink(ids: ids, parameters: parameters, readouts: mic.readouts)
        fileHighPass = SmoothedFilter(kind: .highPass, sampleRate: rate, cutoffHz: 800, resonanceDecibels: 0, enabled: true)
        master = MasterStage(sampleRate: rate, maxFrames: frames)
        sendEffects = SendEffects(sampleRate: rate, maxFrames: frames)
        scratch = StereoBuffer(capacity: frames)
        partVoiceCounts = .allocate(capacity: PartMeters.partCount)
        partVoiceCounts.initialize(repeating: 0, count: PartMeters.partCount)
        controller = EngineController(
            configuration: configuration, parameters: parameters, ids: ids, programBank: content.programBank, routing: content.routing,
            latencyFrames: master.limiter.latencyFrames, samplerBanks: sampler.bankInbox, mic: mic)
    }

    deinit { partVoiceCounts.deallocate() }

    /// Renders one block into `output` (overwritten), applying `events` at their frame offsets.
    /// `input` is the mic/line signal for this block, if any. `output.frames` ≤ `maxFrames`.
    /// Render thread: allocation-free and lock-free.
    public func render(output: StereoBlock, input: StereoBlock? = nil, events: UnsafeBufferPointer<TimedMIDIMessage>) {
        precondition(output.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = output.frames
        let out = StereoBlock(left: output.left, right: output.right, frames: frames)
        applier.applyIfChanged(to: self)
        applyLiveInputs()
        // Nothing can sound and nothing arrives: skip the DSP (an idle instrument costs ~nothing).
        if events.isEmpty && input == nil && isIdle {
            out.clear()
            if !publishedSilence {
                controller.meters.publish(peak: (-160, -160), rms: (-160, -160), voices: 0)
                controller.meters.publish(idle: true)
                publishPartMeters()
                publishedSilence = true
            }
            return
        }
        publishedSilence = false
        for i in buses.indices { buses[i].isActive = false }
        sendEffects.begin(frames: frames)

        // Split the block at event frames so every event lands on its exact frame.
        var position = 0
        var next = 0
        while position < frames {
            while next < events.count && events[next].frameOffset <= position {
                dispatch(events[next].message)
                next += 1
            }
            let end = next < events.count ? min(max(events[next].frameOffset, position + 1), frames) : frames
            renderSources(from: position, count: end - position, blockFrames: frames)
            position = end
        }
        while next < events.count {
            dispatch(events[next].message)
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
        guard synth.isSilent, sampler.isSilent, !master.isRinging, !sendEffects.isRinging else { return false }
        for player in loopPlayers where player?.isSilent == false { return false }
        return true
    }

    /// Voices sounding in the synth and in the sampler (including ones fading out). Render
    /// thread; other threads read `controller.meters.activeVoices`.
    public var activeVoiceCounts: (synth: Int, sampler: Int) { (synth.activeVoiceCount, sampler.activeVoiceCount) }
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
}

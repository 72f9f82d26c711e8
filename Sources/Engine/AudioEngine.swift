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

/// The audio graph: sources (loop players, mic chain, synth, sampler) each on a mixer bus with
/// gain, mute and pan; the file player through its own high-pass; then the master stage (low-pass,
/// high-pass, gain, meters). One `render` call per block, the same live and offline.
///
/// Threads: `init` and `parameters.set…` on the control thread; `render` on the render thread only.
public final class AudioEngine: @unchecked Sendable {
    public let configuration: EngineConfiguration
    /// Every adjustable value, by name; safe to set from any thread.
    public let parameters: ParameterTable
    public let meters = EngineMeters()
    /// Per-part voices, notes, ignored notes, program and peak.
    public let partMeters = PartMeters()
    /// The bank the engine started with (control thread: names of what the parts play).
    public let programBank: ProgramBank?
    public let synth: SineSynth
    public let sampler: SamplerInstrument
    /// The mic/line input chain; its `readouts` carry input meters and detected pitch.
    public let mic: MicChain

    let ids: EngineParameters
    var buses: [MixerBus]
    /// Indexed by `BusID.rawValue`; nil where the bus has no loop.
    let loopPlayers: [LoopPlayer?]
    /// Which channels play (notes on others are counted in `partMeters` and ignored).
    public let routing: ChannelRouting
    /// Per-part voice counts gathered at block end (render thread scratch).
    let partVoiceCounts: UnsafeMutablePointer<Int>
    let controls: [RenderControl]
    var fileHighPass: SmoothedFilter
    let master: MasterStage
    /// Reverb and chorus on the master, fed by every part's CC91/CC93 sends.
    let sendEffects: SendEffects
    /// `velocity.curve`, applied to every note-on before it reaches an instrument.
    var velocityCurve = VelocityCurve.linear
    let scratch: StereoBuffer
    /// Blocks rendered since the last sound; the master tail is skipped once filters have rung out.
    /// Set from any thread to fade the output to silence (10 ms) before the audio stops.
    let fadeOutRequested = Atomic<Bool>(false)
    /// The first block starts at the configured values instead of gliding to them from defaults.
    var isFirstBlock = true
    /// `parameters.generation` when the table was last applied.
    var appliedGeneration: UInt64 = 0
    /// Meters already show silence (set while idle blocks are skipped).
    var publishedSilence = false

    /// Builds the graph and allocates every buffer. Control thread.
    public init(configuration: EngineConfiguration, content: EngineContent = EngineContent()) throws(ParameterError) {
        self.configuration = configuration
        let rate = configuration.sampleRate, frames = configuration.maxFrames
        parameters = ParameterTable()
        ids = EngineParameters(table: parameters, maxSynthVoices: configuration.maxSynthVoices, maxSamplerVoices: configuration.maxSamplerVoices)
        synth = SineSynth(sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSynthVoices)
        sampler = SamplerInstrument(sampleRate: rate, maxFrames: frames, maxVoices: configuration.maxSamplerVoices)
        sampler.quality = configuration.samplerQuality
        programBank = content.programBank
        if let bank = content.programBank { sampler.submit(bank) }
        mic = MicChain(sampleRate: rate, maxFrames: frames)
        buses = BusID.allCases.map { _ in MixerBus(sampleRate: rate, maxFrames: frames) }
        loopPlayers = BusID.allCases.map { bus in content.loops[bus].map { LoopPlayer(sample: $0, sampleRate: rate) } }
        routing = content.routing
        var resolved: [RenderControl] = []
        for m in content.controls {
            guard let index = parameters.index(of: m.parameter) else {
                throw ParameterError("control mapping names unknown parameter '\(m.parameter)'")
            }
            resolved.append(RenderControl(m, parameter: index, descriptor: parameters.descriptors[index]))
        }
        controls = resolved
        fileHighPass = SmoothedFilter(kind: .highPass, sampleRate: rate, cutoffHz: 800, resonanceDecibels: 0, enabled: true)
        master = MasterStage(sampleRate: rate, maxFrames: frames)
        sendEffects = SendEffects(sampleRate: rate, maxFrames: frames)
        scratch = StereoBuffer(capacity: frames)
        partVoiceCounts = .allocate(capacity: PartMeters.partCount)
        partVoiceCounts.initialize(repeating: 0, count: PartMeters.partCount)
    }

    deinit { partVoiceCounts.deallocate() }

    /// Renders one block into `output` (overwritten), applying `events` at their frame offsets.
    /// `input` is the mic/line signal for this block, if any. `output.frames` ≤ `maxFrames`.
    /// Render thread: allocation-free and lock-free.
    public func render(output: StereoBlock, input: StereoBlock? = nil, events: UnsafeBufferPointer<TimedMIDIMessage>) {
        precondition(output.frames <= configuration.maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        let frames = output.frames
        let out = StereoBlock(left: output.left, right: output.right, frames: frames)
        applyParametersIfChanged()
        // Nothing can sound and nothing arrives: skip the DSP (an idle instrument costs ~nothing).
        if events.isEmpty && input == nil && isIdle {
            out.clear()
            if !publishedSilence {
                meters.publish(peak: (-160, -160), rms: (-160, -160), voices: 0)
                meters.publish(idle: true)
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
    /// between blocks offline); other threads read `meters.isIdle`.
    public var isIdle: Bool {
        guard synth.isSilent, sampler.isSilent, !master.isRinging, !sendEffects.isRinging else { return false }
        for player in loopPlayers where player?.isSilent == false { return false }
        return true
    }
}

extension AudioEngine {
    /// Any thread: fades the master output to silence within 10 ms (shutdown without a click).
    public func fadeOut() { fadeOutRequested.store(true, ordering: .relaxed) }

    /// Work that must stay off the render thread but follows it closely: building the mic effect
    /// the parameters select (FFT plans are made on first use), releasing replaced sampler
    /// programs. Call from a control thread every ~10 ms live, between blocks offline, and once
    /// before the first block (the instrument loader does).
    public func performControlWork() {
        sampler.collectGarbage()
        mic.prepare(MicEffectKind(rawValue: Int(parameters.value(ids.mic.effect))) ?? .off)
        if parameters.value(ids.followEnabled) >= 0.5 { mic.preparePitchTracking() }
        mic.prepareRequested()
    }
}

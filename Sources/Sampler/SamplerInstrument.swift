import DSP
import MIDI

/// The real-time sampler: plays the zones of a `SamplerProgram` from MIDI with a preallocated
/// voice pool. Follows the engine's render-unit convention: `init` allocates (control thread);
/// `handle`, `render`, `reset`, `isSilent` and `activeVoiceCount` run on the render thread and
/// never allocate, lock or free. Programs arrive through `submit(_:)` (control thread) and leave
/// through `collectGarbage()` (control thread). Omni: the engine routes channels to it.
///
/// `@unchecked Sendable` because the control thread holds it too: only `submit(_:)` and
/// `collectGarbage()` may be called there (they touch nothing but the atomic mailbox); every other
/// member belongs to the render thread.
public final class SamplerInstrument: @unchecked Sendable {
    /// Voices render in chunks of at most this many frames; envelope, controller and pitch changes
    /// are applied as linear ramps per chunk (1.3 ms at 48 kHz).
    public static let chunkFrames = 64
    /// Pool size limit: `maxVoices` is clamped to this.
    public static let hardMaxVoices = 256
    /// Fade used when a voice is stolen, re-struck, or its program is replaced (click-free).
    public static let stealFadeSeconds = 0.003
    /// Fade used by CC120 All Sound Off.
    public static let allSoundOffFadeSeconds = 0.005

    public let sampleRate: Double
    public let maxFrames: Int
    /// Most voices counted toward polyphony; the pool holds twice as many so that stolen voices
    /// can fade out while their replacements start.
    public let maxVoices: Int
    /// Render thread (or before rendering starts): interpolation used from the next chunk on.
    public var quality: InterpolationQuality = .realtime
    /// Render thread: polyphony override; nil uses the program's `voiceCount`. Clamped to 1…maxVoices.
    public var polyphonyLimit: Int?

    let voices: UnsafeMutablePointer<SamplerVoice>
    let voiceSlots: Int
    private let tables = InterpolationTables()
    private let scratchLeft: UnsafeMutablePointer<Float>
    private let scratchRight: UnsafeMutablePointer<Float>
    private let filterDiscard: UnsafeMutablePointer<Float>
    private let levels: UnsafeMutablePointer<Float>
    private let ramp: UnsafeMutablePointer<Float>
    /// Last value of each controller 0…127 (read by filter modulation).
    let controllerValues: UnsafeMutablePointer<UInt8>
    private let mailbox = ProgramMailbox()

    /// Retained addresses of the playing program and of the one being faded out (0 = none).
    private var currentAddress = 0
    private var retiringAddress = 0
    /// Raw tables of the current program (valid while `currentAddress` is retained).
    var zones = UnsafeMutableBufferPointer<ZonePlayback>(start: nil, count: 0)
    var regions = UnsafeMutableBufferPointer<PlaybackRegion>(start: nil, count: 0)
    var layers = UnsafeMutableBufferPointer<SamplerLayer>(start: nil, count: 0)
    var programVoiceCount = 0
    var programID: Int { currentAddress }

    var controls: ChannelControls
    /// Note-on counter; a voice's `age` is its value at start (smaller = older).
    var ageCounter: UInt64 = 0

    /// Control thread. `maxVoices` (default 64) is clamped to 1…`hardMaxVoices`.
    public init(sampleRate: Double, maxFrames: Int, maxVoices: Int = 64) {
        self.sampleRate = sampleRate
        self.maxFrames = max(1, maxFrames)
        self.maxVoices = min(max(1, maxVoices), Self.hardMaxVoices)
        voiceSlots = 2 * self.maxVoices
        voices = .allocate(capacity: voiceSlots)
        voices.initialize(repeating: SamplerVoice(sampleRate: sampleRate), count: voiceSlots)
        scratchLeft = .allocate(capacity: Self.chunkFrames)
        scratchRight = .allocate(capacity: Self.chunkFrames)
        filterDiscard = .allocate(capacity: Self.chunkFrames)
        levels = .allocate(capacity: Self.chunkFrames)
        ramp = .allocate(capacity: Self.chunkFrames)
        for i in 0..<Self.chunkFrames { (ramp + i).initialize(to: Float(i + 1)) }
        controllerValues = .allocate(capacity: 128)
        controllerValues.initialize(repeating: 0, count: 128)
        // Sound controllers 71–79 (brightness, resonance…) start centred, as GM devices assume;
        // volume/expression at full and pan centred, matching `ChannelControls`.
        for controller in 71...79 { controllerValues[controller] = 64 }
        controllerValues[7] = 127
        controllerValues[11] = 127
        controllerValues[10] = 64
        for buffer in [scratchLeft, scratchRight, filterDiscard, levels] { buffer.initialize(repeating: 0, count: Self.chunkFrames) }
        controls = ChannelControls(sampleRate: sampleRate)
    }

    deinit {
        mailbox.release(currentAddress)
        mailbox.release(retiringAddress)
        voices.deinitialize(count: voiceSlots).deallocate()
        scratchLeft.deallocate()
        scratchRight.deallocate()
        filterDiscard.deallocate()
        levels.deallocate()
        ramp.deallocate()
        controllerValues.deallocate()
    }

    // MARK: Program hand-over

    /// Control thread: makes `program` the one the next note plays. Voices of the previous
    /// program fade out (3 ms); the previous program comes back through `collectGarbage()`.
    public func submit(_ program: SamplerProgram) {
        mailbox.deposit(program)
        mailbox.collect()
    }

    /// Control thread: releases a program the render thread has finished with. Call it now and
    /// then (e.g. with each status update); returns true if a program was released.
    @discardableResult
    public func collectGarbage() -> Bool {
        mailbox.collect()
    }

    /// Render thread: adopts a submitted program when the previous swap has fully retired.
    func acceptPendingProgram() {
        finishRetiring()
        guard retiringAddress == 0 else { return }
        let address = mailbox.takeIfRoomForGarbage()
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        if currentAddress != 0 {
            retiringAddress = currentAddress
            for slot in 0..<voiceSlots where voices[slot].isActive {
                voices[slot].steal(fadeSeconds: Self.stealFadeSeconds)
            }
        }
        currentAddress = address
        Unmanaged<SamplerProgram>.fromOpaque(pointer)._withUnsafeGuaranteedRef { program in
            zones = program.zonePlayback
            regions = program.regionTable
            layers = program.layerTable
            programVoiceCount = program.globals.voiceCount
        }
        finishRetiring()
    }

    /// Hands the retiring program back once no voice reads its memory.
    private func finishRetiring() {
        guard retiringAddress != 0, mailbox.hasRoomForGarbage else { return }
        for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].programID == retiringAddress {
            return
        }
        mailbox.retire(retiringAddress)
        retiringAddress = 0
    }

    // MARK: Rendering

    /// Render thread: ADDS `block.frames` (≤ `maxFrames`; larger blocks are rendered too) frames.
    public func render(into block: StereoBlock) {
        acceptPendingProgram()
        var offset = 0
        while offset < block.frames {
            let frames = min(Self.chunkFrames, block.frames - offset)
            controls.advance(frames: frames)
            let context = VoiceRenderContext(
                scratchLeft: scratchLeft, scratchRight: scratchRight, filterDiscard: filterDiscard, levels: levels, ramp: ramp, controllerValues: controllerValues,
                hermite: tables.hermite, sinc: tables.sinc, quality: quality, outputSampleRate: sampleRate,
                bend: controls.bend, modWheel: controls.modWheel,
                volumeGain: controls.volume.current, expressionGain: controls.expression.current,
                controllerPan: Double(controls.pan.current))
            let chunk = block.slice(from: offset, count: frames)
            for slot in 0..<voiceSlots where voices[slot].isActive {
                voices[slot].render(into: chunk, context: context)
            }
            offset += frames
        }
        finishRetiring()
    }

    /// Render thread: silences every voice at once (no fade) and clears filter state.
    public func reset() {
        for slot in 0..<voiceSlots {
            voices[slot].isActive = false
            voices[slot].envelope.reset()
            voices[slot].filter.reset()
        }
        finishRetiring()
    }

    /// Render thread: true when no voice is sounding (the engine may skip `render`).
    public var isSilent: Bool { activeVoiceCount == 0 }

    /// Render thread: voices sounding, including those fading out after a steal.
    public var activeVoiceCount: Int {
        var count = 0
        for slot in 0..<voiceSlots where voices[slot].isActive { count += 1 }
        return count
    }

    /// Polyphony in force: the override or the program's voice count, within 1…maxVoices.
    public var effectivePolyphony: Int {
        min(max(polyphonyLimit ?? programVoiceCount, 1), maxVoices)
    }
}

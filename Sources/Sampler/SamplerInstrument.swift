import DSP
import MIDI

/// The sampler's constants (`SamplerInstrument` repeats them under its own name). Kept outside
/// the class: a class's static is initialised lazily behind a lock and naming the class type is a
/// metadata access, both of which the real-time checks reject on the render path.
public enum SamplerConstants {
    /// Voices render in chunks of at most this many frames; envelope, controller and pitch changes
    /// are applied as linear ramps per chunk (1.3 ms at 48 kHz).
    public static let chunkFrames = 64
    /// Pool size limit: `maxVoices` is clamped to this.
    public static let hardMaxVoices = 256
    /// Fade used when a voice is stolen, re-struck, or its bank is replaced (click-free).
    public static let stealFadeSeconds = 0.003
    /// Fade used by CC120 All Sound Off.
    public static let allSoundOffFadeSeconds = 0.005
    /// A voice younger than this is stolen only when every other candidate is younger too: a drum
    /// hit's attack is never cut to keep an older held pad.
    public static let stealProtectionSeconds = 0.050
    public static let partCount = 16
    /// A note struck with the soft pedal (CC67) down is, besides 6 dB softer, darker where its
    /// layer has a filter: the cutoff half an octave lower.
    public static let softPedalCutoffCents = -600.0
    /// How long a zone struck before its samples were read waits for them (`PendingNotes`) before
    /// it is given up as silent: a note later than this would sound like a wrong one.
    public static let unpreparedNoteWaitSeconds = 0.1
}

/// The real-time sampler as a 16-part sound module: each MIDI channel is a part with its own
/// program (from the `ProgramBank`), controllers and held notes; all parts share one preallocated
/// voice pool and polyphony budget. Follows the render-unit contract (Sources/DSP/README.md): `init` allocates
/// (control thread); `handle`, `render`, `reset`, `isSilent` and the voice counts run on the render
/// thread and never allocate, lock or free. Banks arrive through `bankInbox` (`Sendable`: the
/// control thread keeps it) and leave through its `collectGarbage()`; the instrument itself is
/// not `Sendable` and belongs to the render thread.
public final class SamplerInstrument {
    public static let chunkFrames = SamplerConstants.chunkFrames
    public static let hardMaxVoices = SamplerConstants.hardMaxVoices
    public static let stealFadeSeconds = SamplerConstants.stealFadeSeconds
    public static let allSoundOffFadeSeconds = SamplerConstants.allSoundOffFadeSeconds
    public static let stealProtectionSeconds = SamplerConstants.stealProtectionSeconds
    public static let partCount = SamplerConstants.partCount
    public static let softPedalCutoffCents = SamplerConstants.softPedalCutoffCents

    public let sampleRate: Double
    public let maxFrames: Int
    /// Most voices counted toward polyphony (all parts together); the pool holds twice as many so
    /// that stolen voices can fade out while their replacements start.
    public let maxVoices: Int
    /// Render thread (or before rendering starts): interpolation used from the next chunk on.
    public var quality: InterpolationQuality = .realtime
    /// Render thread: polyphony budget shared by all parts; nil = `maxVoices`. Clamped to 1…maxVoices.
    public var polyphonyLimit: Int?
    /// Render thread: master tuning, the frequency of A4 in Hz (each part's RPN 1/2 adds to it).
    public var a4Hz: Double {
        @_noAllocation get { a4.hertz }
        @_noAllocation set { a4.set(newValue) }
    }
    private var a4 = A4Reference()

    let voices: LineAlignedArray<SamplerVoice>
    let voiceSlots: Int
    private let tables = InterpolationTables.shared
    /// Scratch of the render thread (0) and of the helper threads an offline render may add.
    let workers: UnsafeMutablePointer<WorkerScratch>
    /// How many threads may render parts of one span at once (1: the render thread alone).
    public let workerCount: Int
    let board: UnsafeMutablePointer<PartTaskBoard>
    private let ramp: UnsafeMutablePointer<Float>
    /// 16 × 128 controller values, 128 per part.
    private let controllerBlock: UnsafeMutablePointer<UInt8>
    let parts: UnsafeMutablePointer<SamplerPart>
    /// The parts' and their voice groups' sub-mixes of one span and what rendering it needs
    /// (`SamplerInstrument+Parts`).
    let span: SpanMemory
    /// Highest sub-mix sample of each part since `takePartPeak`.
    let partPeaks: UnsafeMutablePointer<Float>
    /// Poly pressure per part, which SoundFont voices' modulators read.
    let soundFontMemory: SF2PartMemory
    /// FluidSynth's minimum note length (`synth.min-note-length`, 10 ms) for SoundFont voices, frames.
    let minimumNoteFrames: Int
    /// The control thread's end of the bank hand-over.
    public let bankInbox = SamplerBankInbox()
    /// The render thread's end of `bankInbox`'s mailbox (plain pointers; the inbox keeps it alive).
    private let mailbox: ProgramMailbox<ProgramBank>.RenderEnd
    let protectionFrames: UInt64

    /// Retained addresses of the bank in use and of the one being faded out (0 = none).
    private var currentAddress = 0
    private var retiringAddress = 0
    /// The tables of the bank in use (`currentAddress` keeps it alive); nil before the first.
    private(set) var bank: ProgramBank.RenderTables?
    var bankID: Int { currentAddress }
    /// Increments each time a new bank is adopted (the engine re-reads part programs then).
    public private(set) var bankGeneration = 0

    /// Note-on counter; a voice's `age` is its value at start (smaller = older).
    var ageCounter: UInt64 = 0
    /// Counts note-on messages (`SamplerVoice.noteID`).
    var noteOnCounter: UInt64 = 0
    /// Frames rendered so far (the clock of `stealProtectionSeconds`).
    var frameClock: UInt64 = 0
    /// Zones struck before their samples were read, waiting for them (`startPendingNotes`).
    var pendingNotes = PendingNotes()
    /// How long a struck zone waits for its samples, frames (0: it does not wait).
    let waitFrames: UInt64

    /// Control thread. `maxVoices` (default 64) is clamped to 1…`hardMaxVoices`; `workers`
    /// (1…16) is how many threads may render parts at once: the render thread and `workers` − 1
    /// helpers calling `help(span:worker:)` (offline renders; the output does not depend on it);
    /// `unpreparedNoteWaitSeconds` how long a zone struck before its samples were read waits for
    /// them (0: silent at once).
    public init(
        sampleRate: Double, maxFrames: Int, maxVoices: Int = 64, workers: Int = 1,
        unpreparedNoteWaitSeconds: Double = SamplerConstants.unpreparedNoteWaitSeconds
    ) {
        self.sampleRate = sampleRate
        self.maxFrames = max(1, maxFrames)
        self.maxVoices = min(max(1, maxVoices), SamplerConstants.hardMaxVoices)
        protectionFrames = UInt64(SamplerConstants.stealProtectionSeconds * sampleRate)
        waitFrames = UInt64(max(0, unpreparedNoteWaitSeconds) * sampleRate)
        mailbox = bankInbox.mailbox.renderEnd
        voiceSlots = 2 * self.maxVoices
        voices = LineAlignedArray(repeating: SamplerVoice(sampleRate: sampleRate), count: voiceSlots)
        workerCount = min(max(1, workers), SamplerConstants.partCount)
        self.workers = .allocate(capacity: workerCount)
        for w in 0..<workerCount {
            (self.workers + w).initialize(to: WorkerScratch(chunkFrames: SamplerConstants.chunkFrames, generatorCount: SF2Generator.count))
        }
        ramp = .allocate(capacity: SamplerConstants.chunkFrames)
        for i in 0..<SamplerConstants.chunkFrames { (ramp + i).initialize(to: Float(i + 1)) }
        controllerBlock = .allocate(capacity: 128 * SamplerConstants.partCount)
        controllerBlock.initialize(repeating: 0, count: 128 * SamplerConstants.partCount)
        parts = .allocate(capacity: SamplerConstants.partCount)
        partPeaks = .allocate(capacity: SamplerConstants.partCount)
        partPeaks.initialize(repeating: 0, count: SamplerConstants.partCount)
        soundFontMemory = SF2PartMemory(parts: SamplerConstants.partCount)
        minimumNoteFrames = Int(0.010 * sampleRate)
        span = SpanMemory(parts: SamplerConstants.partCount, voiceSlots: voiceSlots, maxFrames: self.maxFrames, workers: workerCount)
        board = .allocate(capacity: 1)
        board.initialize(to: PartTaskBoard(maxTasks: span.maxGroups, workers: workerCount))
        for c in 0..<SamplerConstants.partCount {
            (parts + c).initialize(to: SamplerPart(sampleRate: sampleRate, controllerValues: controllerBlock + 128 * c))
        }
        // Placeholders: `prepareContext` writes a chunk's every value before its voices read it.
        let blank = PartChunk(
            quality: quality, bend: 0, bendRangeOverrideCents: .nan, tuningCents: 0, volumeGain: 1, expressionGain: 1, controllerPan: 0,
            gainsRamping: false, volumeTarget: 1, expressionTarget: 1, panTarget: 0, controllerValues: controllerBlock, hasSends: false,
            soundFont: SF2ChannelState(polyPressure: soundFontMemory.polyPressure(channel: 0)))
        span.initializeContexts(blank: blank) { w in
            let scratch = self.workers[w], sums = span.sends(0, offset: 0, frames: SamplerConstants.chunkFrames)
            return VoiceRenderContext(
                scratchLeft: scratch.left, scratchRight: scratch.right, filterDiscard: scratch.filterDiscard, levels: scratch.levels, ramp: ramp,
                hermite: tables.hermite, offline: tables.offline, levelSteps: tables.levelSteps, outputSampleRate: sampleRate,
                chunk: UnsafePointer(span.chunks),
                soundFont: SF2ChannelContext(
                    generatorScratch: scratch.generators, minimumNoteFrames: minimumNoteFrames, reverb: sums.reverb, chorus: sums.chorus,
                    sent: span.sentFlag(0)))
        }
    }

    deinit {
        // Before the banks: their programs may outlive the instrument, with cells these voices count in.
        for slot in 0..<voiceSlots { voices[slot].releaseRegion() }
        pendingNotes.deallocate()
        bankInbox.mailbox.release(currentAddress)
        bankInbox.mailbox.release(retiringAddress)
        voices.deallocate()
        for w in 0..<workerCount { workers[w].deallocate() }
        workers.deinitialize(count: workerCount).deallocate()
        board.deinitialize(count: 1).deallocate()
        span.deallocate()
        ramp.deallocate()
        controllerBlock.deallocate()
        parts.deinitialize(count: SamplerConstants.partCount).deallocate()
        partPeaks.deallocate()
        soundFontMemory.deallocate()
    }

    // MARK: Bank hand-over

    /// Before the instrument goes to the render thread (tests, benchmarks, offline): `bankInbox.submit`.
    public func submit(_ bank: ProgramBank) { bankInbox.submit(bank) }

    /// Before the instrument goes to the render thread: `bankInbox.submit`.
    public func submit(_ program: SamplerProgram) { bankInbox.submit(program) }

    /// Between blocks on the thread that renders (offline, tests): `bankInbox.collectGarbage()`.
    @discardableResult
    public func collectGarbage() -> Bool { bankInbox.collectGarbage() }

    /// Render thread: the one point where a submitted bank is taken up (once the previous swap has
    /// fully retired): voices of the bank in use fade out and every part restarts on the new bank's
    /// start program. `render` and `handle` begin with it; a host that asks `partProgram` before
    /// handing a block's first message over (the engine) calls it at the start of its block.
    @_noAllocation
    public func adoptPendingBank() {
        finishRetiring()
        guard retiringAddress == 0 else { return }
        let address = mailbox.takeIfRoomForGarbage()
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        pendingNotes.dropAll()  // their programs leave with the bank in use
        if currentAddress != 0 {
            retiringAddress = currentAddress
            for slot in 0..<voiceSlots where voices[slot].isActive {
                voices[slot].steal(fadeSeconds: SamplerConstants.stealFadeSeconds)
            }
        }
        currentAddress = address
        let reference = RenderRef<ProgramBank>(address: UnsafeMutableRawPointer(mutating: pointer))
        let adopted = reference { $0.renderTables }
        bank = adopted
        bankGeneration &+= 1
        for c in 0..<SamplerConstants.partCount { restoreStart(channel: c) }
        finishRetiring()
    }

    /// Part `channel` back on the program and drum assignment the bank starts it with.
    func restoreStart(channel c: Int) {
        guard let bank else { return }
        parts[c].isDrum = bank.partSetups[c].isDrum
        parts[c].programNumber = bank.partSetups[c].program
        parts[c].select(bank.startProgram(channel: c), bank: bank, stamp: frameClock &+ 1)
    }

    /// Hands the retiring bank back once no voice reads its memory.
    func finishRetiring() {
        let voices = voices  // locals: `&&` would capture `self` (a retain)
        guard retiringAddress != 0, mailbox.hasRoomForGarbage else { return }
        let retiring = retiringAddress
        for slot in 0..<voiceSlots where voices[slot].isActive && voices[slot].bankID == retiring {
            return
        }
        mailbox.retire(retiringAddress)
        retiringAddress = 0
    }

    /// Render thread: what part `channel` (0–15) plays in the bank in use; nil before a bank was
    /// adopted (`adoptPendingBank`).
    @_noAllocation
    public func partProgram(channel: Int) -> PartProgram? {
        currentAddress == 0 ? nil : parts[channel & 15].program
    }

    // MARK: Rendering

    /// Render thread: ADDS `block.frames` (≤ `maxFrames`) frames.
    /// Each part's voices are summed into its own buffer first (`renderSpan`), to measure the
    /// part's peak and to feed `sends` (frames from `sendOffset` of its block) at the part's
    /// CC91/CC93 levels.
    @_noAllocation
    public func render(into block: StereoBlock, sends: SendTarget? = nil, at sendOffset: Int = 0) {
        let maxFrames = maxFrames
        precondition(block.frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        adoptPendingBank()
        if !pendingNotes.isEmpty { startPendingNotes() }
        renderSpan(into: block, sends: sends, at: sendOffset)
        finishRetiring()
    }

    /// Moves part `channel`'s smoothers on by `frames` and writes its values for one chunk into
    /// `chunk` (`sends`: whether its voices add to send sums) with the instrument's `quality` and
    /// master tuning (`a4Semitones`), which the caller reads once for all its chunks. Written field
    /// by field in place: filling a copy and storing it whole read the fresh stores back at once (a
    /// stalled load per 64 bytes, 4 % of a render's rendering thread).
    func prepareContext(
        channel c: Int, frames: Int, sends: Bool, quality: InterpolationQuality, a4Semitones: Double, into chunk: UnsafeMutablePointer<PartChunk>
    ) {
        parts[c].gains.advance(frames: frames)
        let part = UnsafePointer(parts + c)  // read in place: a copy of the part retains its tables
        let controllers = part.pointee.controllers, gains = part.pointee.gains
        chunk.pointee.quality = quality
        chunk.pointee.bend = controllers.bend
        chunk.pointee.bendRangeOverrideCents = part.pointee.bendRangeOverrideCents
        chunk.pointee.tuningCents = 100 * (a4Semitones + MasterTuning.channelSemitones(
            fineTuningData: controllers.fineTuningData, coarseTuningData: Int(controllers.coarseTuningData)))
        chunk.pointee.volumeGain = gains.volume.current
        chunk.pointee.expressionGain = gains.expression.current
        chunk.pointee.controllerPan = Double(gains.pan.current)
        chunk.pointee.gainsRamping = gains.isRamping
        chunk.pointee.volumeTarget = gains.volume.target
        chunk.pointee.expressionTarget = gains.expression.target
        chunk.pointee.panTarget = Double(gains.pan.target)
        chunk.pointee.controllerValues = UnsafePointer(part.pointee.controllerValues)
        chunk.pointee.hasSends = sends
        chunk.pointee.soundFont = SF2ChannelState(part, polyPressure: soundFontMemory.polyPressure(channel: c))
    }

    /// The master tuning in semitones from A4 = 440 Hz.
    var a4Semitones: Double { a4.semitones }

    /// Render thread: the highest sample part `channel` produced (before bus and master gains)
    /// since the last call, then starts over.
    @_noAllocation
    public func takePartPeak(channel: Int) -> Float {
        defer { partPeaks[channel & 15] = 0 }
        return partPeaks[channel & 15]
    }

    /// Render thread: adds each part's sounding voices (including fading ones) to `counts[channel]`.
    @_noAllocation
    public func addVoiceCounts(to counts: UnsafeMutablePointer<Int>) {
        for slot in 0..<voiceSlots where voices[slot].isActive { counts[voices[slot].channel] += 1 }
    }

    /// Render thread: silences every voice at once (no fade), forgets the zones waiting for
    /// their samples, and clears filter state.
    @_noAllocation
    public func reset() {
        pendingNotes.cancel(channel: nil)
        for slot in 0..<voiceSlots {
            voices[slot].releaseRegion()
            voices[slot].isActive = false
            voices[slot].envelope.reset()
            voices[slot].filter.reset()
        }
        finishRetiring()
    }

    /// Render thread: true when no voice is sounding and none waits to (the engine may skip `render`).
    /// Stops at the first sounding voice (asked every block; counting all 256 slots was not needed).
    public var isSilent: Bool {
        @_noAllocation get {
            for slot in 0..<voiceSlots where voices[slot].isActive { return false }
            return pendingNotes.isEmpty  // a zone waiting for its samples may start at the next block
        }
    }

    /// Render thread: voices sounding, including those fading out after a steal.
    public var activeVoiceCount: Int {
        @_noAllocation get {
        var count = 0
        for slot in 0..<voiceSlots where voices[slot].isActive { count += 1 }
        return count
        }
    }

    /// The shared polyphony budget in force: the override or `maxVoices`, within 1…maxVoices.
    public var effectivePolyphony: Int {
        @_noAllocation get {
            let maxVoices = maxVoices  // a local: `??` would capture `self` (a retain)
            return min(max(polyphonyLimit ?? maxVoices, 1), maxVoices)
        }
    }
}

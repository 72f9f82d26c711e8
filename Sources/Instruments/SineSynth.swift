#if canImport(Glibc)
import Glibc
#endif
import DSP
import MIDI

/// Polyphonic sine synthesizer driven by MIDI, 16 channels each with its own controllers: velocity,
/// DAHDSR envelope in seconds, pitch bend with RPN 0 range, RPN 1/2 tuning under the master A4,
/// CC7 volume, CC10 pan, CC11 expression, CC91/CC93 reverb and chorus sends, sustain, sostenuto and
/// soft pedals, CC 120/121/123 and 124–127 (release), the SysEx resets; silent above Nyquist;
/// one voice limit for all channels with click-free
/// stealing, and an optional pitch follower voice that sings at a frequency fed from outside (the
/// mic's detected pitch, centred).
///
/// Threads: `init` on the control thread (allocates every voice); everything else on the render thread.
public final class SineSynth {
    public let sampleRate: Double
    public let maxFrames: Int
    /// Voices sounding at once (not counting ones finishing a steal fade).
    public var voiceLimit: Int
    public var envelope = EnvelopeSettings(attackSeconds: 0.01, decaySeconds: 0.2, sustainLevel: 0.7, releaseSeconds: 0.3)
    /// Bend range of channels whose sender set none with RPN 0.
    public var pitchBendRangeSemitones: Double = 2
    /// Master tuning: the frequency of A4, Hz (each channel's RPN 1/2 adds to it).
    public var a4Hz: Double {
        @_noAllocation get { a4.hertz }
        @_noAllocation set { a4.set(newValue) }
    }
    private var a4 = A4Reference()
    /// Fade applied to a stolen voice and on all-sound-off.
    public static let stealFadeSeconds = SinePitchAndLevel.stealFadeSeconds

    private var voices: UnsafeMutableBufferPointer<SineVoice>
    private let mono: UnsafeMutablePointer<Float>
    /// 16 channels × `maxFrames`: each channel's voices, summed before its gain and pan.
    private let channelMix: UnsafeMutablePointer<Float>
    /// One channel after its gain and pan, before it joins the output and the sends.
    private let channelStereo: StereoBuffer
    /// `channelStereo`'s whole capacity as a plain view (calling the object would retain it).
    private let channelStereoBlock: StereoBlock
    private let channels: UnsafeMutablePointer<SynthChannel>
    /// Highest output sample of each channel since `takeChannelPeak`.
    private let channelPeaks: UnsafeMutablePointer<Float>
    private var noteCounter: UInt64 = 0
    private var follower: PitchFollowerVoice
    /// A channel as `init` leaves it (`reset` copies it: building one calls non-real-time inits).
    private let freshChannel: SynthChannel

    public init(sampleRate: Double, maxFrames: Int, maxVoices: Int = 32) {
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        voiceLimit = max(1, maxVoices)
        // Twice the limit, so every stolen voice can fade while its successor starts.
        voices = .allocate(capacity: 2 * voiceLimit + 2)
        voices.initialize(repeating: SineVoice(sampleRate: sampleRate))
        mono = .allocate(capacity: maxFrames)
        channelMix = .allocate(capacity: 16 * maxFrames)
        channelStereo = StereoBuffer(capacity: maxFrames)
        channelStereoBlock = channelStereo.block(frames: maxFrames)
        channels = .allocate(capacity: 16)
        freshChannel = SynthChannel(sampleRate: sampleRate)
        channels.initialize(repeating: freshChannel, count: 16)
        channelPeaks = .allocate(capacity: 16)
        channelPeaks.initialize(repeating: 0, count: 16)
        follower = PitchFollowerVoice(sampleRate: sampleRate)
    }

    deinit {
        voices.deallocate()
        mono.deallocate()
        channelMix.deallocate()
        channels.deinitialize(count: 16).deallocate()
        channelPeaks.deallocate()
    }

    /// Voices currently producing sound (including ones fading out).
    public var activeVoiceCount: Int {
        @_noAllocation get {
            var count = 0
            for i in voices.indices where voices[i].isActive { count += 1 }
            return count
        }
    }

    public var isSilent: Bool {
        @_noAllocation get {
            let followerSilent = follower.isSilent
            return activeVoiceCount == 0 && followerSilent
        }
    }

    // MARK: MIDI

    /// Applies one MIDI message at the current position. Unknown messages are ignored.
    @_noAllocation
    public func handle(_ message: MIDIMessage) {
        switch message.normalized {
        case .noteOn(let channel, let note, let velocity):
            noteOn(channel: channel, note: note, velocity: velocity)
        case .noteOff(let channel, let note, _):
            noteOff(channel: channel, note: note)
        case .pitchBend(let channel, let value):
            channels[Int(channel & 15)].controllers.setBend(value)
        case .controlChange(let channel, let controller, let value):
            control(channel: Int(channel & 15), controller: controller, value: value)
        case .system(.reset):
            let voices = voices
            for i in voices.indices where voices[i].isActive {
                voices[i].fadeOut(seconds: SinePitchAndLevel.stealFadeSeconds)
            }
            for c in 0..<16 { channels[c].resetControllers() }
        default:
            break
        }
    }

    /// Whether any voice (also one fading out) sounds on `channel`.
    @_noAllocation
    private func hasVoices(on channel: Int) -> Bool {
        let voices = voices  // a local view: `&&` would capture `self` (a retain)
        for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel { return true }
        return false
    }

    @_noAllocation
    private func noteOn(channel: UInt8, note: UInt8, velocity: UInt8) {
        let voices = voices  // a local view: `&&` below would capture `self` (a retain)
        // A re-struck key fades its previous voice so the two never pile up.
        for i in voices.indices where voices[i].isActive && !voices[i].isFading
            && voices[i].note == note && voices[i].channel == channel {
            voices[i].fadeOut(seconds: SinePitchAndLevel.stealFadeSeconds)
        }
        let decision = VoiceAllocator.allocate(count: voices.count, limit: voiceLimit) { i in
            let v = voices[i]
            return .init(isFree: !v.isActive, isFading: v.isFading, isReleased: !v.isKeyDown && !v.isSustained,
                         age: v.age, level: v.level)
        }
        if let victim = decision.steal { voices[victim].fadeOut(seconds: SinePitchAndLevel.stealFadeSeconds) }
        // The channel's gains apply to its mix, not per voice: on a silent channel, a ramp still
        // going (a controller sent just before) would start this note at the stale level.
        if !hasVoices(on: Int(channel & 15)) { channels[Int(channel & 15)].gains.snap() }
        noteCounter &+= 1
        let amplitude = SinePitchAndLevel.amplitude(velocity: velocity) * Float(channels[Int(channel & 15)].controllers.strikeGain)
        voices[decision.slot].start(note: note, channel: channel, amplitude: amplitude,
                                    age: noteCounter, settings: envelope)
    }

    @_noAllocation
    private func noteOff(channel: UInt8, note: UInt8) {
        let voices = voices, channels = channels
        for i in voices.indices where voices[i].isActive && voices[i].isKeyDown
            && voices[i].note == note && voices[i].channel == channel {
            if channels[Int(channel & 15)].controllers.sustainDown || voices[i].isLatched {
                voices[i].isKeyDown = false
                voices[i].isSustained = true
            } else {
                voices[i].release()
            }
        }
    }

    @_noAllocation
    private func control(channel: Int, controller: UInt8, value: UInt8) {
        let voices = voices, channels = channels
        let silent = !hasVoices(on: channel)
        switch channels[channel].controllers.apply(controller: controller, value: value) {
        case .volume: channels[channel].gains.setVolume(Int(value))
        case .expression: channels[channel].gains.setExpression(Int(value))
        case .pan: channels[channel].gains.setPan(Int(value))
        case .sostenutoPressed:
            for i in voices.indices where voices[i].isActive && voices[i].isKeyDown && Int(voices[i].channel) == channel {
                voices[i].isLatched = true
            }
        case .sustainReleased, .sostenutoReleased:
            releasePedalledVoices(channel: channel)
        case .resetAllControllers:
            channels[channel].gains.setExpression(127)
            releasePedalledVoices(channel: channel)
        case .allSoundOff:
            for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel {
                voices[i].fadeOut(seconds: SinePitchAndLevel.stealFadeSeconds)
            }
        case .allNotesOff:
            for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel
                && (voices[i].isKeyDown || voices[i].isSustained) {
                voices[i].release()
            }
            channels[channel].controllers.sustainDown = false
        case .none, .bankSelect:
            break
        }
        let c = channels[channel].controllers
        PartLevels.settle(
            gains: &channels[channel].gains, sends: &channels[channel].sends, silent: silent, sendChanged: MIDIController.isSend(controller),
            reverbController: c.reverbSend, chorusController: c.chorusSend)
    }

    /// A pedal went up: notes whose key is up and that no pedal still holds are released. The
    /// sostenuto latch ends on every note of the channel, also on one whose key is still down:
    /// kept, it would make that key's later note-off hold the note for good.
    @_noAllocation
    private func releasePedalledVoices(channel: Int) {
        let voices = voices
        let controllers = channels[channel].controllers
        for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel {
            if !controllers.sostenutoDown { voices[i].isLatched = false }
            if voices[i].isSustained && !controllers.sustainDown && !voices[i].isLatched { voices[i].release() }
        }
    }

    /// Peak amplitude of a voice for a note-on velocity: the DLS concave curve (40·log10(v/127) dB)
    /// under a −12 dBFS ceiling, leaving headroom for chords.
    public static func amplitude(velocity: UInt8) -> Float { SinePitchAndLevel.amplitude(velocity: velocity) }

    // MARK: Pitch follower

    /// Makes the follower voice sing at `frequencyHz` with amplitude `level` (0 silences it, with a
    /// fade). Called at block start by the engine when the pitch follower is on.
    @_noAllocation
    public func follow(frequencyHz: Double, level: Float) {
        follower.setTarget(frequencyHz: frequencyHz, level: level)
    }

    // MARK: Render

    /// Adds the synth's output into `block`: each channel's voices at its volume × expression and
    /// pan (equal power), the pitch follower centred. Each channel's signal also goes to `sends`
    /// (frames from `offset` of its block) at its CC91/CC93 levels; nil sends nothing.
    @_noAllocation
    public func render(into block: StereoBlock, sends: SendTarget? = nil, at offset: Int = 0) {
        let frames = block.frames, maxFrames = maxFrames
        precondition(frames <= maxFrames, "block above maxFrames: the caller chunks (Sources/DSP/README.md)")
        guard !isSilent else { return }
        var touched: UInt16 = 0
        let defaultBendRange = pitchBendRangeSemitones
        for i in voices.indices where voices[i].isActive {
            let c = Int(voices[i].channel & 15)
            let mix = channelMix + c * maxFrames
            if touched & (1 << c) == 0 {
                touched |= 1 << c
                mix.update(repeating: 0, count: frames)
            }
            let controllers = channels[c].controllers
            let bend = controllers.bend * (controllers.bendRangeSemitones ?? defaultBendRange)
            let tuning = a4.semitones + MasterTuning.channelSemitones(fineTuningData: controllers.fineTuningData,
                                                                     coarseTuningData: Int(controllers.coarseTuningData))
            let f = SinePitchAndLevel.frequency(note: voices[i].note, bendSemitones: bend + tuning)
            voices[i].render(into: mix, frames: frames, increment: f / sampleRate)
        }
        for c in 0..<16 {
            guard touched & (1 << c) != 0 else {
                channels[c].gains.advance(frames: frames)
                channels[c].sends.advance(frames: frames)
                continue
            }
            let stereo = channelStereoBlock.slice(from: 0, count: frames)
            channelPeaks[c] = channels[c].mix(channelMix + c * maxFrames, into: stereo, peak: channelPeaks[c])
            for i in 0..<frames {
                block.left[i] += stereo.left[i]
                block.right[i] += stereo.right[i]
            }
            if let sends { sends.add(stereo, at: offset, levels: &channels[c].sends) } else { channels[c].sends.advance(frames: frames) }
        }
        guard !follower.isSilent else { return }
        mono.update(repeating: 0, count: frames)
        follower.render(into: mono, frames: frames)
        for i in 0..<frames {
            block.left[i] += mono[i]
            block.right[i] += mono[i]
        }
    }

    /// The highest sample channel `channel` added since the last call (then starts over).
    @_noAllocation
    public func takeChannelPeak(channel: Int) -> Float {
        defer { channelPeaks[channel & 15] = 0 }
        return channelPeaks[channel & 15]
    }

    /// Adds each channel's sounding voices to `counts[channel]`.
    @_noAllocation
    public func addVoiceCounts(to counts: UnsafeMutablePointer<Int>) {
        for i in voices.indices where voices[i].isActive { counts[Int(voices[i].channel & 15)] += 1 }
    }

    /// Equal-tempered frequency, A4 (69) = 440 Hz, with a bend in semitones.
    public static func frequency(note: UInt8, bendSemitones: Double) -> Double {
        SinePitchAndLevel.frequency(note: note, bendSemitones: bendSemitones)
    }

    /// Silences everything at once (prepare/stop time; not click-free).
    @_noAllocation
    public func reset() {
        for i in voices.indices {
            voices[i].isActive = false
            voices[i].envelope.reset()
        }
        for c in 0..<16 { channels[c] = freshChannel }
        follower.reset()
    }
}

/// The synth's formulas, outside the class: naming a class type on the render thread (for a
/// static member) is a metadata access the real-time checks reject.
enum SinePitchAndLevel {
    static let stealFadeSeconds = 0.004

    /// Peak amplitude of a voice for a note-on velocity (see `SineSynth.amplitude`).
    @_noAllocation
    static func amplitude(velocity: UInt8) -> Float {
        let v = Double(max(velocity, 1)) / 127
        return Float(0.25 * v * v)
    }

    /// Equal-tempered frequency, A4 (69) = 440 Hz, with a bend in semitones.
    @_noAllocation
    static func frequency(note: UInt8, bendSemitones: Double) -> Double {
        440 * RealTimeMath.pow(2, (Double(note) - 69 + bendSemitones) / 12)
    }
}

/// One channel of the synth: its controllers, smoothed gains and send levels.
struct SynthChannel {
    var controllers = ChannelControllerState()
    var gains: ChannelGains
    var sends: ChannelSends

    init(sampleRate: Double) {
        gains = ChannelGains(sampleRate: sampleRate)
        sends = ChannelSends(sampleRate: sampleRate)
    }

    /// Every controller back to its power-on value (a reset), ramping under the fading voices.
    @_noAllocation
    mutating func resetControllers() {
        controllers = ChannelControllerState()
        gains.setVolume(Int(controllers.volume))
        gains.setExpression(Int(controllers.expression))
        gains.setPan(Int(controllers.pan))
        sends.follow(reverbController: controllers.reverbSend, chorusController: controllers.chorusSend, snap: false)
    }

    /// Writes the channel's mono sum into `block` at its volume × expression and pan, per frame
    /// (the smoothers ramp), and returns the running `peak` updated with what it wrote.
    @_noAllocation
    mutating func mix(_ mono: UnsafeMutablePointer<Float>, into block: StereoBlock, peak: Float) -> Float {
        var peak = peak
        let frames = block.frames
        guard gains.isRamping else {
            let (left, right) = panGains(Double(gains.pan.current), gain: gains.volume.current * gains.expression.current)
            for i in 0..<frames {
                block.left[i] = mono[i] * left
                block.right[i] = mono[i] * right
                peak = max(peak, max(abs(mono[i] * left), abs(mono[i] * right)))  // two-argument max: the variadic one allocates
            }
            return peak
        }
        for i in 0..<frames {
            let volume = gains.volume.next(), expression = gains.expression.next()
            let (left, right) = panGains(Double(gains.pan.next()), gain: volume * expression)
            block.left[i] = mono[i] * left
            block.right[i] = mono[i] * right
            peak = max(peak, max(abs(mono[i] * left), abs(mono[i] * right)))  // two-argument max: the variadic one allocates
        }
        return peak
    }

    /// Equal-power pan scaled by √2, so a centred channel keeps its mono level on both sides.
    private func panGains(_ pan: Double, gain: Float) -> (Float, Float) {
        let p = PanLaw.gains(pan: pan)
        let root2 = RealTimeMath.sqrt(2.0)
        return (gain * Float(p.left * root2), gain * Float(p.right * root2))
    }
}

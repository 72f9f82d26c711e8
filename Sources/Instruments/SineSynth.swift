#if canImport(Glibc)
import Glibc
#endif
import DSP
import MIDI

/// Polyphonic sine synthesizer driven by MIDI: velocity, DAHDSR envelope in seconds, pitch bend,
/// sustain pedal, CC 120/121/123, a voice limit with click-free stealing, and an optional pitch
/// follower voice that sings at a frequency fed from outside (the mic's detected pitch).
///
/// Threads: `init` on the control thread (allocates every voice); everything else on the render thread.
public final class SineSynth {
    public let sampleRate: Double
    public let maxFrames: Int
    /// Voices sounding at once (not counting ones finishing a steal fade).
    public var voiceLimit: Int
    public var envelope = EnvelopeSettings(attackSeconds: 0.01, decaySeconds: 0.2, sustainLevel: 0.7, releaseSeconds: 0.3)
    public var pitchBendRangeSemitones: Double = 2
    /// Fade applied to a stolen voice and on all-sound-off.
    public static let stealFadeSeconds = 0.004

    private var voices: UnsafeMutableBufferPointer<SineVoice>
    private let mono: UnsafeMutablePointer<Float>
    private var noteCounter: UInt64 = 0
    private var sustainDown = [Bool](repeating: false, count: 16)
    private var bendSemitones = [Double](repeating: 0, count: 16)
    private var follower: PitchFollowerVoice

    public init(sampleRate: Double, maxFrames: Int, maxVoices: Int = 32) {
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        voiceLimit = max(1, maxVoices)
        // Twice the limit, so every stolen voice can fade while its successor starts.
        voices = .allocate(capacity: 2 * voiceLimit + 2)
        voices.initialize(repeating: SineVoice(sampleRate: sampleRate))
        mono = .allocate(capacity: maxFrames)
        follower = PitchFollowerVoice(sampleRate: sampleRate)
    }

    deinit {
        voices.deallocate()
        mono.deallocate()
    }

    /// Voices currently producing sound (including ones fading out).
    public var activeVoiceCount: Int { voices.reduce(0) { $0 + ($1.isActive ? 1 : 0) } }

    public var isSilent: Bool { activeVoiceCount == 0 && follower.isSilent }

    // MARK: MIDI

    /// Applies one MIDI message at the current position. Unknown messages are ignored.
    public func handle(_ message: MIDIMessage) {
        switch message.normalized {
        case .noteOn(let channel, let note, let velocity):
            noteOn(channel: channel, note: note, velocity: velocity)
        case .noteOff(let channel, let note, _):
            noteOff(channel: channel, note: note)
        case .pitchBend(let channel, let value):
            bendSemitones[Int(channel & 15)] = Double(value) / 8192 * pitchBendRangeSemitones
        case .controlChange(let channel, let controller, let value):
            control(channel: Int(channel & 15), controller: controller, value: value)
        default:
            break
        }
    }

    private func noteOn(channel: UInt8, note: UInt8, velocity: UInt8) {
        // A re-struck key fades its previous voice so the two never pile up.
        for i in voices.indices where voices[i].isActive && !voices[i].isFading
            && voices[i].note == note && voices[i].channel == channel {
            voices[i].fadeOut(seconds: Self.stealFadeSeconds)
        }
        let decision = VoiceAllocator.allocate(count: voices.count, limit: voiceLimit) { i in
            let v = voices[i]
            return .init(isFree: !v.isActive, isFading: v.isFading, isReleased: !v.isKeyDown && !v.isSustained,
                         age: v.age, level: v.level)
        }
        if let victim = decision.steal { voices[victim].fadeOut(seconds: Self.stealFadeSeconds) }
        noteCounter &+= 1
        voices[decision.slot].start(note: note, channel: channel, amplitude: Self.amplitude(velocity: velocity),
                                    age: noteCounter, settings: envelope)
    }

    private func noteOff(channel: UInt8, note: UInt8) {
        for i in voices.indices where voices[i].isActive && voices[i].isKeyDown
            && voices[i].note == note && voices[i].channel == channel {
            if sustainDown[Int(channel & 15)] {
                voices[i].isKeyDown = false
                voices[i].isSustained = true
            } else {
                voices[i].release()
            }
        }
    }

    private func control(channel: Int, controller: UInt8, value: UInt8) {
        switch controller {
        case MIDIController.sustainPedal:
            let down = value >= 64
            sustainDown[channel] = down
            if !down {
                for i in voices.indices where voices[i].isSustained && Int(voices[i].channel) == channel {
                    voices[i].release()
                }
            }
        case MIDIController.allSoundOff:
            for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel {
                voices[i].fadeOut(seconds: Self.stealFadeSeconds)
            }
        case MIDIController.allNotesOff:
            for i in voices.indices where voices[i].isActive && Int(voices[i].channel) == channel
                && (voices[i].isKeyDown || voices[i].isSustained) {
                voices[i].release()
            }
            sustainDown[channel] = false
        case MIDIController.resetAllControllers:
            bendSemitones[channel] = 0
            if sustainDown[channel] { control(channel: channel, controller: MIDIController.sustainPedal, value: 0) }
        default:
            break
        }
    }

    /// Peak amplitude of a voice for a note-on velocity: the DLS concave curve (40·log10(v/127) dB)
    /// under a −12 dBFS ceiling, leaving headroom for chords.
    public static func amplitude(velocity: UInt8) -> Float {
        let v = Double(max(velocity, 1)) / 127
        return Float(0.25 * v * v)
    }

    // MARK: Pitch follower

    /// Makes the follower voice sing at `frequencyHz` with amplitude `level` (0 silences it, with a
    /// fade). Called at block start by the engine when the pitch follower is on.
    public func follow(frequencyHz: Double, level: Float) {
        follower.setTarget(frequencyHz: frequencyHz, level: level)
    }

    // MARK: Render

    /// Adds the synth's output (mono, both channels) into `block`.
    public func render(into block: StereoBlock) {
        let frames = min(block.frames, maxFrames)
        guard !isSilent else { return }
        mono.update(repeating: 0, count: frames)
        for i in voices.indices where voices[i].isActive {
            let f = Self.frequency(note: voices[i].note, bendSemitones: bendSemitones[Int(voices[i].channel & 15)])
            voices[i].render(into: mono, frames: frames, increment: f / sampleRate)
        }
        follower.render(into: mono, frames: frames)
        for i in 0..<frames {
            block.left[i] += mono[i]
            block.right[i] += mono[i]
        }
    }

    /// Equal-tempered frequency, A4 (69) = 440 Hz, with a bend in semitones.
    public static func frequency(note: UInt8, bendSemitones: Double) -> Double {
        440 * pow(2, (Double(note) - 69 + bendSemitones) / 12)
    }

    /// Silences everything at once (prepare/stop time; not click-free).
    public func reset() {
        for i in voices.indices {
            voices[i].isActive = false
            voices[i].envelope.reset()
        }
        for c in 0..<16 {
            sustainDown[c] = false
            bendSemitones[c] = 0
        }
        follower.reset()
    }
}

/// One sample header (spec §7.10) after validation. For PCM samples `start`/`end` are frames of
/// the smpl pool; for SF3 Ogg Vorbis samples they are bytes of it, and `frameCount` is the decoded
/// length read from the stream's last Ogg page. Loop points are frames from the sample's first
/// frame, for both. Value type; any thread.
import MemberwiseInit

@PublicInit
public struct SoundFontSample: Sendable, Equatable {
    public var name: String
    /// First frame (PCM) or byte (Vorbis) in the smpl chunk.
    public var start: Int
    /// One past the last frame (PCM) or byte (Vorbis).
    public var end: Int
    /// Frames the sample plays: `end − start` for PCM, the decoded length for Vorbis.
    public var frameCount: Int
    /// First frame of the loop, from the sample's start (after FluidSynth's sanitizing, see README).
    public var loopStart: Int
    /// One past the last frame of the loop, from the sample's start. May exceed `frameCount` where
    /// the font's loop ends in the pool after the sample (FluidSynth keeps those; its voices clamp
    /// loop and play positions into the sample, as the synthesis side must).
    public var loopEnd: Int
    /// Hz, as stored (the loader refuses to play 0 or more than 768 kHz; see `playability`).
    public var sampleRate: Int
    /// MIDI key of the recorded pitch, raw: 0…127, 255 = unpitched (the spec says to use 60;
    /// FluidSynth uses 255 as is), 128–254 are illegal but kept as FluidSynth does.
    public var originalPitch: Int
    /// Cents to add to play at the original pitch, −128…127 (spec says ±99).
    public var pitchCorrection: Int
    /// wSampleLink: the other half of a stereo pair. FluidSynth ignores it (and it is broken in
    /// FluidR3_GM.sf2); the model keeps it raw.
    public var link: Int
    /// wSampleType as stored: 1 mono, 2 right, 4 left, 8 linked, 0x10 Ogg Vorbis (SF3), 0x8000 ROM.
    public var typeBits: UInt16
    /// Whether a note can play this sample, and why not.
    public var playability: Playability = .playable

    public enum Playability: Sendable, Equatable {
        case playable
        /// Dropped at load with a warning (bad positions, rate 0, ROM, Vorbis in an SF2…); zones
        /// that use the sample make no sound, as in FluidSynth.
        case dropped(reason: String)
    }

    public var isPlayable: Bool { playability == .playable }

    /// The longest sample accepted (2²⁶ frames, 25 minutes at 44.1 kHz, 256 MB as Float); a longer
    /// one is dropped at load, so reading any sample's frames is bounded.
    public static let maxFrames = 1 << 26
    /// SF3: the sample is an Ogg Vorbis stream (sampleType bit 0x10).
    public var isCompressed: Bool { typeBits & 0x10 != 0 }
    public var isROM: Bool { typeBits & 0x8000 != 0 }

    /// The channel role, from the type bits (FluidSynth treats no mono/left/right bit as mono).
    public enum Channel: Sendable { case mono, left, right, linked }
    public var channel: Channel {
        if typeBits & 4 != 0 { return .left }
        if typeBits & 2 != 0 { return .right }
        if typeBits & 1 == 0 && typeBits & 8 != 0 { return .linked }
        return .mono
    }
}

import DSP

/// SoundFont unit conversions as FluidSynth 2.3 computes them (its `fluid_conv.c` tables), so
/// that what a font sets sounds the same here: table lookups that truncate (centibels to whole
/// cB, pitch to whole cents) are reproduced, since listeners of "FluidSynth-compatible" players
/// hear those. Pure functions, render-thread safe (only `RealTimeMath`).
enum SF2Units {
    /// FluidSynth renders envelopes, LFOs, pitch and cutoff once per block of this many frames;
    /// its times are whole blocks. The voice keeps these times but moves every frame.
    static let blockFrames = 64
    /// A voice's send is FluidSynth's (generator + CC91/CC93 modulators, 0…1) × this: the default
    /// modulators send 0.2 at CC 127, which this makes the full send a bundled part has at CC 127
    /// (`ChannelSends`: value/127), so SoundFont and bundled parts sit alike in the same reverb.
    static let sendScale = 5.0
    /// The volume envelope's span: e = 0 is 96 dB below e = 1 (FLUID_PEAK_ATTENUATION).
    static let peakAttenuationCentibels = 960.0

    private static var log2Of10: Double { 3.321_928_094_887_362_3 }

    /// Attenuation in centibels → amplitude: 1 below 0 cB, 0 from 144.1 dB on, else 10^(−⌊cB⌋/200).
    @_noAllocation
    static func amplitude(centibels cb: Double) -> Double {
        if !(cb >= 0) { return cb.isNaN ? 0 : 1 }
        if cb >= 1441 { return 0 }
        // exp2, not pow(10, …): a voice asks this every chunk its envelope moves, and pow costs ~3× more.
        return RealTimeMath.exp2(-RealTimeMath.floor(cb) * (log2Of10 / 200))
    }

    /// Timecents → seconds, limited as FluidSynth limits delays (−12000…5000 tc; −32768 = none).
    @_noAllocation
    static func delaySeconds(timecents tc: Double) -> Double {
        if tc <= -32_768 { return 0 }
        return RealTimeMath.exp2(min(max(tc, -12_000), 5000) / 1200)
    }

    /// Timecents → seconds for attacks and releases (−12000…8000 tc; −32768 = none).
    @_noAllocation
    static func rampSeconds(timecents tc: Double) -> Double {
        if tc <= -32_768 { return 0 }
        return RealTimeMath.exp2(min(max(tc, -12_000), 8000) / 1200)
    }

    /// Absolute cents → Hz (8.176 Hz at 0).
    @_noAllocation
    static func hertz(absoluteCents c: Double) -> Double { 8.176 * RealTimeMath.exp2(c / 1200) }

    /// The filter's cutoff: absolute cents limited to 1500…13500 (20 Hz…20 kHz), whole cents.
    @_noAllocation
    static func cutoffHertz(absoluteCents c: Double) -> Double {
        let limited = min(max(c, 1500), 13_500)
        return 8.175_798_915_643_707 * RealTimeMath.exp2(RealTimeMath.floor(limited) / 1200)
    }

    /// The sine pan law: gain of the left (`left`) or right channel for pan −500…500 (0.1 %),
    /// −3 dB at the centre, from a 1002-point table indexed by truncation.
    @_noAllocation
    static func panGain(_ pan: Double, left: Bool) -> Double {
        let c = left ? -pan : pan
        if !(c > -500) { return 0 }
        if c >= 500 { return 1 }
        let index = RealTimeMath.floor(c + 500)
        return RealTimeMath.sin(index * Double.pi / 2 / 1001)
    }

    /// The modulator "concave" curve at 0…127 (a 128-point table, linearly interpolated):
    /// C(j) = −(5/12)·log10((127 − j)/127), C(127) = 1.
    @_noAllocation
    static func concave(_ v: Double) -> Double { interpolated(v, concave: true) }

    /// The "convex" curve: V(j) = 1 + (5/12)·log10(j/127), V(0) = 0.
    @_noAllocation
    static func convex(_ v: Double) -> Double { interpolated(v, concave: false) }

    /// Either curve between its points j = floor(v) and j + 1; 0 below 0 (and for NaN), 1 from 127.
    @_noAllocation
    private static func interpolated(_ v: Double, concave: Bool) -> Double {
        if !(v >= 0) { return 0 }
        if v >= 127 { return 1 }
        let j = RealTimeMath.floor(v)
        let a = concave ? concavePoint(j) : convexPoint(j)
        let b = concave ? concavePoint(j + 1) : convexPoint(j + 1)
        return a + (b - a) * (v - j)
    }

    @_noAllocation
    private static func concavePoint(_ j: Double) -> Double {
        j >= 127 ? 1 : -(5.0 / 12) * RealTimeMath.log10((127 - j) / 127)
    }

    @_noAllocation
    private static func convexPoint(_ j: Double) -> Double {
        j <= 0 ? 0 : 1 + (5.0 / 12) * RealTimeMath.log10(j / 127)
    }
}

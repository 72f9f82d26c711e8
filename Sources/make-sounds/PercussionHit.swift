import Glibc

/// A percussion sound described by its parts, rendered offline in Double: decaying sine modes
/// (a membrane's, a bar's, a bell's), noise bands (a stick's click, a shaker's beads, a brush),
/// struck once or several times (a clap, a guiro's scrape, a rattle). Each hit has a short
/// click-free attack and ends in exact silence (raised-cosine fade over its last 10 %).
struct PercussionHit {
    /// A sine: `hz` (gliding from `glideFrom` × `hz` over `glideSeconds`), held `holdSeconds` at
    /// full level, then decaying with time constant `decaySeconds`; optional vibrato.
    struct Mode {
        var hz: Double
        var level = 1.0
        var decaySeconds: Double
        var glideFrom = 1.0
        var glideSeconds = 0.0
        var holdSeconds = 0.0
        var vibratoHz = 0.0
        var vibratoDepth = 0.0
    }

    /// Noise through a band-pass (centre sweeping from `centerHz` to `sweepToHz` over the hit), or
    /// a high-pass at `highPassHz`; rising over `attackSeconds`, held, then decaying.
    struct Noise {
        var level = 1.0
        var decaySeconds: Double
        var centerHz = 3_000.0
        var q = 0.7
        var sweepToHz: Double? = nil
        var highPassHz: Double? = nil
        var attackSeconds = 0.0
        var holdSeconds = 0.0
    }

    var seconds: Double
    var modes: [Mode] = []
    var noises: [Noise] = []
    /// Strike times (s) and gains: every mode and noise starts again at each.
    var strikes: [(time: Double, gain: Double)] = [(0, 1)]
    /// tanh drive after mixing (an electronic kick's edge); 0 = none.
    var drive = 0.0
    var attackFrames = 8

    func render(sampleRate: Double, random: inout SeededRandom) -> [Double] {
        let length = Int(seconds * sampleRate)
        var out = [Double](repeating: 0, count: length)
        for strike in strikes {
            let start = Int(strike.time * sampleRate)
            guard start < length else { continue }
            for mode in modes { add(mode, gain: strike.gain, from: start, to: &out, sampleRate: sampleRate) }
            for noise in noises { add(noise, gain: strike.gain, from: start, to: &out, sampleRate: sampleRate, random: &random) }
        }
        return out.indices.map { n in
            let x = drive > 0 ? tanh(drive * out[n]) : out[n]
            return x * attack(n, frames: attackFrames) * fadeOut(n, length: length, fadeFrames: length / 10)
        }
    }

    private func add(_ mode: Mode, gain: Double, from start: Int, to out: inout [Double], sampleRate: Double) {
        var phase = 0.0
        for n in start..<out.count {
            let t = Double(n - start) / sampleRate
            let glide = mode.glideSeconds > 0 ? 1 + (mode.glideFrom - 1) * exp(-t / mode.glideSeconds) : 1
            let vibrato = 1 + mode.vibratoDepth * sin(2 * Double.pi * mode.vibratoHz * t)
            phase += 2 * Double.pi * mode.hz * glide * vibrato / sampleRate
            out[n] += gain * mode.level * sin(phase) * envelope(t, hold: mode.holdSeconds, decay: mode.decaySeconds)
        }
    }

    private func add(_ noise: Noise, gain: Double, from start: Int, to out: inout [Double], sampleRate: Double, random: inout SeededRandom) {
        var band = StateVariableFilter()
        var highPass = noise.highPassHz.map { Biquad.highPass(cutoffHz: $0, q: 0.7, sampleRate: sampleRate) }
        let frames = out.count - start
        for n in start..<out.count {
            let t = Double(n - start) / sampleRate
            let white = random.bipolar()
            let filtered: Double
            if highPass != nil {
                filtered = highPass!.process(white)
            } else {
                let progress = Double(n - start) / Double(frames)
                let center = noise.sweepToHz.map { noise.centerHz * pow($0 / noise.centerHz, progress) } ?? noise.centerHz
                filtered = band.bandPass(white, hz: center, q: noise.q, sampleRate: sampleRate)
            }
            let rise = noise.attackSeconds > 0 ? min(1, t / noise.attackSeconds) : 1
            out[n] += gain * noise.level * filtered * rise * envelope(t - noise.attackSeconds, hold: noise.holdSeconds, decay: noise.decaySeconds)
        }
    }

    private func envelope(_ t: Double, hold: Double, decay: Double) -> Double {
        t <= hold ? 1 : exp(-(t - hold) / decay)
    }
}

/// Chamberlin state-variable filter, band-pass output normalised to unity gain at the centre;
/// its centre can move every sample (a scratch's sweep). Offline use only.
struct StateVariableFilter {
    private var low = 0.0, band = 0.0

    mutating func bandPass(_ x: Double, hz: Double, q: Double, sampleRate: Double) -> Double {
        let f = 2 * sin(Double.pi * min(hz, sampleRate / 6) / sampleRate)
        let damping = 1 / q
        low += f * band
        let high = x - low - damping * band
        band += f * high
        return band * damping
    }
}

import Glibc
import AudioFiles
import MIDI

/// The sampler's bundled samples: `lead.aif` and the electric-piano `Keys/` set.
enum SampleInstruments {
    /// `lead.aif`: C4 (root 60), a soft-attack tone of six harmonics, 44.1 kHz 16-bit mono, ~2 s,
    /// with INST root key 60 and a MARK sustain loop over an exactly periodic region.
    static func writeLead(to path: String) throws(AudioFiles.AudioFileError) -> PeriodicLoop {
        let sampleRate = 44_100.0
        guard let loop = PeriodicLoop.fitting(frequency: noteFrequency(60), sampleRate: sampleRate) else {
            throw AudioFileError(path: path, reason: "no periodic loop fits C4 at 44.1 kHz")
        }
        let levels = [1.0, 0.5, 0.3, 0.18, 0.1, 0.06]
        let tone = HarmonicTone(
            partials: levels.enumerated().map { index, level in
                .init(harmonic: index + 1, attackAmplitude: level * (1 + 0.4 * Double(index)), steadyAmplitude: level, phase: 0)
            },
            attackSeconds: 0.08, settleSeconds: 0.4, loopRepeats: repeats(loop, seconds: 1.2), tailSeconds: 0.4)
        let rendered = tone.render(loop: loop, peak: 0.8)
        try AIFFWriter.write(
            path: path, channels: [rendered.samples], sampleRate: sampleRate, bitDepth: 16, rootKey: 60,
            sustainLoop: SampleLoop(startFrame: rendered.loopStart, endFrame: rendered.loopEnd))
        return loop
    }

    /// `Keys/keys-<root>-<soft|hard>.wav` for roots 48, 60, 72: 48 kHz 16-bit mono electric-piano tones,
    /// ~2.5 s, with a bright, bell-like attack settling into an exactly periodic loop; root key and
    /// loop in the `smpl` chunk. `soft` is darker and 7 dB quieter than `hard`.
    static func writeKeys(to directory: String) throws(AudioFiles.AudioFileError) -> [String] {
        let sampleRate = 48_000.0
        var written: [String] = []
        for root in [48, 60, 72] {
            guard let loop = PeriodicLoop.fitting(frequency: noteFrequency(Double(root)), sampleRate: sampleRate) else {
                throw AudioFileError(path: directory, reason: "no periodic loop fits note \(root) at 48 kHz")
            }
            for hard in [false, true] {
                let tone = HarmonicTone(
                    partials: keysPartials(hard: hard), attackSeconds: 0.004, settleSeconds: 0.7,
                    loopRepeats: repeats(loop, seconds: 1.2), tailSeconds: 0.6)
                let path = directory + "/keys-\(root)-\(hard ? "hard" : "soft").wav"
                try writeLoopedWAV(tone.render(loop: loop, peak: hard ? 0.9 : 0.4), path: path, sampleRate: Int(sampleRate), rootKey: root)
                written.append(path)
            }
        }
        return written
    }

    /// Electric-piano spectrum: strong fundamental, a bell-like 4th harmonic, a bright attack that
    /// decays to the steady mix; hard strikes keep more of the upper harmonics.
    static func keysPartials(hard: Bool) -> [HarmonicTone.Partial] {
        let steady = [1.0, 0.35, 0.12, 0.2, 0.06, 0.05, 0.03, 0.02]
        let brightness = hard ? 0.8 : 0.45
        return steady.enumerated().map { index, level in
            let darkening = pow(brightness, Double(index))
            return HarmonicTone.Partial(
                harmonic: index + 1, attackAmplitude: level * darkening * (index == 0 ? 1.2 : 3.0),
                steadyAmplitude: level * darkening, phase: 0.3 * Double(index))
        }
    }

    /// A 16-bit mono WAV with the tone's sustain loop and root key in its `smpl` chunk.
    static func writeLoopedWAV(
        _ rendered: (samples: [Float], loopStart: Int, loopEnd: Int), path: String, sampleRate: Int, rootKey: Int
    ) throws(AudioFileError) {
        try WAVFileWriter.write(
            path: path, channels: [rendered.samples], sampleRate: sampleRate, encoding: .pcm16,
            loops: [SampleLoop(startFrame: rendered.loopStart, endFrame: rendered.loopEnd)], rootKey: rootKey)
    }

    /// Loop repeats closest to `seconds`, at least one.
    static func repeats(_ loop: PeriodicLoop, seconds: Double) -> Int {
        max(1, Int((seconds * loop.sampleRate / Double(loop.frames)).rounded()))
    }
}

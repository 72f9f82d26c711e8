import MIDI

/// `guitar.wav`: a stereo strummed chord riff, Am – F – C – G, two bars at 120 BPM (exactly 4.0 s
/// at 44.1 kHz = 176 400 frames). Each string is a Karplus–Strong pluck; strings are spread across the
/// stereo field; ringing past the end wraps to the start, so the loop is seamless.
enum GuitarLoop {
    static let sampleRate = 44_100.0
    static let framesPerBeat = 22_050
    static let beatsPerLoop = 8

    /// Six-string voicings (MIDI notes, low to high).
    static let chords: [[Int]] = [
        [45, 52, 57, 60, 64],  // A minor
        [41, 48, 53, 57, 60, 65],  // F major
        [48, 52, 55, 60, 64],  // C major
        [43, 47, 50, 55, 59, 67],  // G major
    ]

    /// Strums per chord: (beat offset within the chord's two beats, down-strum?, level).
    static let strums: [(beat: Double, down: Bool, level: Double)] = [(0, true, 1.0), (1, true, 0.7), (1.5, false, 0.55)]

    static func render(seed: UInt64) -> [[Float]] {
        var left = LoopBuffer(frames: framesPerBeat * beatsPerLoop)
        var right = LoopBuffer(frames: framesPerBeat * beatsPerLoop)
        var random = SeededRandom(seed: seed)
        let string = PluckedString(sampleRate: sampleRate)
        for (chordIndex, chord) in chords.enumerated() {
            for (strumIndex, strum) in strums.enumerated() {
                let start = Double(chordIndex * 2) + strum.beat
                let nextStart = strumIndex + 1 < strums.count ? Double(chordIndex * 2) + strums[strumIndex + 1].beat : Double(chordIndex * 2 + 2)
                let seconds = (nextStart - start) * 0.5 + 0.03  // ring until just after the next strum
                let order = strum.down ? chord : chord.reversed()
                for (stringIndex, note) in order.enumerated() {
                    let frequency = noteFrequency(Double(note))
                    let sound = string.pluck(
                        frequency: frequency, seconds: seconds, brightness: 0.35 + 0.3 * strum.level, decaySeconds: 2.5,
                        random: &random)
                    let frame = Int(start * Double(framesPerBeat)) + stringIndex * 330  // 7.5 ms between strings
                    let pan = Double(chord.firstIndex(of: note) ?? 0) / Double(chord.count - 1)  // low left, high right
                    left.mix(sound, at: frame, gain: strum.level * (1 - 0.6 * pan))
                    right.mix(sound, at: frame, gain: strum.level * (0.4 + 0.6 * pan))
                }
            }
        }
        let peak = max(left.samples.map(abs).max() ?? 0, right.samples.map(abs).max() ?? 0)
        let scale = peak > 0 ? 0.85 / peak : 0
        return [left.samples.map { Float($0 * scale) }, right.samples.map { Float($0 * scale) }]
    }
}

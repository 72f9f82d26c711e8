import Glibc

/// Karplus–Strong plucked string: a delay line of one period fed back through a two-point average
/// (the string's high-frequency loss) and a first-order all-pass that supplies the fractional part
/// of the period, so the pitch is exact rather than rounded to whole samples.
struct PluckedString {
    let sampleRate: Double

    /// Renders one pluck of `frequency` Hz lasting `seconds`, muted by a short release at the end.
    /// `brightness` (0…1) low-passes the excitation; `decaySeconds` is the −60 dB ring time.
    func pluck(
        frequency: Double, seconds: Double, brightness: Double, decaySeconds: Double, random: inout SeededRandom
    ) -> [Double] {
        // The averaging filter delays by half a sample; the all-pass supplies the remaining fraction.
        let period = sampleRate / frequency - 0.5
        // Keep the all-pass fraction in 0.1…1.1 samples, where its delay is flat across the spectrum.
        let whole = max(2, Int((period - 0.1).rounded(.down)))
        let fraction = period - Double(whole)
        let allPass = (1 - fraction) / (1 + fraction)
        let loopGain = pow(0.001, 1 / (decaySeconds * frequency))

        var line = [Double](repeating: 0, count: whole)
        var smoothed = 0.0
        let smoothing = 1 - brightness
        for index in 0..<whole {
            smoothed = smoothing * smoothed + (1 - smoothing) * random.bipolar()
            line[index] = smoothed
        }
        let mean = line.reduce(0, +) / Double(whole)
        for index in 0..<whole { line[index] -= mean }  // no DC in the excitation

        let length = Int(seconds * sampleRate)
        let releaseFrames = Int(0.04 * sampleRate)
        var output = [Double](repeating: 0, count: length)
        var position = 0
        var previous = 0.0
        var allPassInput = 0.0, allPassOutput = 0.0
        for n in 0..<length {
            let current = line[position]
            let averaged = 0.5 * (current + previous) * loopGain
            previous = current
            let delayed = allPass * averaged + allPassInput - allPass * allPassOutput
            allPassInput = averaged
            allPassOutput = delayed
            line[position] = delayed
            position = (position + 1) % whole
            output[n] = current * attack(n, frames: 16) * fadeOut(n, length: length, fadeFrames: releaseFrames)
        }
        return output
    }
}

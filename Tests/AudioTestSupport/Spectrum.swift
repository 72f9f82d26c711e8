import DSP
import Foundation

/// Amplitude spectra in double precision, for measuring spurious components (aliases, images)
/// far below the signal: a Kaiser window of β 20 has side lobes near −190 dB, so a component
/// 120 dB below a neighbouring partial is still seen as itself. Test thread only.
public enum Spectrum {
    /// Half-width, in bins, of the β-20 window's main lobe (√(1 + (β/π)²) ≈ 6.5) plus margin: bins
    /// this close to a known partial belong to it.
    public static let mainLobeBins = 10

    /// Amplitudes of bins 0…count/2 of `x` (count a power of two) under a Kaiser window of
    /// `beta`, scaled so a sine of amplitude A centred on a bin reads A.
    public static func amplitudes(_ x: ArraySlice<Float>, beta: Double = 20) -> [Double] {
        let n = x.count
        precondition(n >= 2 && n & (n - 1) == 0, "spectrum length must be a power of two")
        let window = (0..<n).map { WindowedSinc.kaiser($0, count: n, beta: beta) }
        var re = zip(x, window).map { Double($0) * $1 }
        var im = [Double](repeating: 0, count: n)
        fft(&re, &im)
        let scale = 2 / window.reduce(0, +)
        return (0...(n / 2)).map { scale * (re[$0] * re[$0] + im[$0] * im[$0]).squareRoot() }
    }

    /// The largest amplitude among bins farther than `mainLobeBins` from every frequency in
    /// `expected` (Hz) and above `lowestHz`, with its frequency.
    public static func largestSpurious(
        _ amplitudes: [Double], sampleRate: Double, expected: [Double], lowestHz: Double = 20
    ) -> (amplitude: Double, frequency: Double) {
        let binHz = sampleRate / Double(2 * (amplitudes.count - 1))
        var excluded = [Bool](repeating: false, count: amplitudes.count)
        for bin in 0..<amplitudes.count where Double(bin) * binHz < lowestHz { excluded[bin] = true }
        for frequency in expected {
            let centre = Int((frequency / binHz).rounded())
            for bin in max(0, centre - mainLobeBins)...max(0, centre + mainLobeBins) where bin < amplitudes.count {
                excluded[bin] = true
            }
        }
        var worst = (amplitude: 0.0, frequency: 0.0)
        for bin in 0..<amplitudes.count where !excluded[bin] && amplitudes[bin] > worst.amplitude {
            worst = (amplitudes[bin], Double(bin) * binHz)
        }
        return worst
    }

    /// In-place iterative radix-2 FFT.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<(length / 2) {
                    let wr = cos(angle * Double(k)), wi = sin(angle * Double(k))
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * wr - im[b] * wi, ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
            }
            length <<= 1
        }
    }
}

/// A mono buffer of exactly one loop length in which sounds are mixed with wrap-around: whatever
/// rings past the end continues at the start, so the loop is seamless when played end to start.
struct LoopBuffer {
    private(set) var samples: [Double]

    init(frames: Int) { samples = [Double](repeating: 0, count: frames) }

    var frameCount: Int { samples.count }

    /// Mixes `sound` in starting at `frame` (sounds longer than the loop wrap more than once).
    mutating func mix(_ sound: [Double], at frame: Int, gain: Double = 1) {
        let count = samples.count
        for (offset, value) in sound.enumerated() {
            samples[((frame + offset) % count + count) % count] += gain * value
        }
    }

    /// Scales so the peak is `peak` (linear, so the seam stays seamless).
    func normalized(peak: Double) -> [Float] { Self.normalized(samples, peak: peak) }

    /// `sound` scaled so its peak is `peak`.
    static func normalized(_ sound: [Double], peak: Double) -> [Float] {
        let largest = sound.reduce(0) { max($0, abs($1)) }
        let scale = largest > 0 ? peak / largest : 0
        return sound.map { Float($0 * scale) }
    }
}

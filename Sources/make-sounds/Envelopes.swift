import Glibc

/// A raised-cosine ramp from 0 to 1 over the first `frames` frames.
func attack(_ n: Int, frames: Int) -> Double {
    n >= frames ? 1 : 0.5 - 0.5 * cos(Double.pi * Double(n) / Double(frames))
}

/// 1 until the last `fadeFrames` of `length`, then a raised cosine down to exactly 0 at the end,
/// so every synthesized sound ends in silence.
func fadeOut(_ n: Int, length: Int, fadeFrames: Int) -> Double {
    let fadeStart = length - fadeFrames
    guard n >= fadeStart, fadeFrames > 0 else { return 1 }
    return 0.5 + 0.5 * cos(Double.pi * Double(n - fadeStart) / Double(fadeFrames))
}

import Presets
import Sampler

/// What the presets of one instrument share when they are built with it: each sample file is
/// decoded once (by resolved path) and each (sample, loop) region is made, and band-limited, once,
/// however many presets use it — the drum kits play mostly the same pieces, and several programs
/// may use one family's samples. Control thread only.
public final class SharedSamples {
    let regions = RegionStorage()
    var decoded: [String: SampleLibrary.Loaded] = [:]
    /// Where a preset directory's sample reference was found: presets side by side name the same
    /// files, and the TN2283 fallback search is the dearer part of loading them.
    var resolved: [String: SampleResolution] = [:]

    public init() {}
}

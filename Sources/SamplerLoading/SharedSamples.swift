import Sampler

/// What the presets of one instrument share when they are built with it: each sample file is
/// decoded once (by resolved path) and each (sample, loop) region is made, and band-limited, once,
/// however many presets use it — the drum kits play mostly the same pieces, and several programs
/// may use one family's samples. Control thread only.
public final class SharedSamples {
    let regions = RegionStorage()
    var decoded: [String: SampleLibrary.Loaded] = [:]

    public init() {}
}

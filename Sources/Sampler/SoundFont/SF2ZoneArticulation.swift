/// A SoundFont zone pair as the sampler plays it: the zone's generators and modulator list (the
/// loader's combination of preset and instrument zones, FluidSynth's defaults included) and the
/// sample header facts pitch needs. Attached to a `SamplerZone`, whose waveform, key/velocity
/// ranges and loop say what plays; this says how. Control-thread value.
import MemberwiseInit

@PublicInit
public struct SF2ZoneArticulation: Sendable, Equatable {
    public var generators: SF2Generators = SF2Generators()
    /// At most `maxModulators` are kept (FluidSynth's limit per voice).
    public var modulators: [SF2Modulator] = SF2Modulator.fluidSynthDefaults
    /// The sample header's original key (0…127) and pitch correction (cents).
    public var originalPitch: Int = 60
    public var pitchCorrection: Int = 0
    /// Frame of the waveform the voice starts at (start address offsets applied).
    public var startFrame: Int = 0
    /// Sample mode 3: loop while the key is held, then play on to the end (the zone's `loop` is the loop).
    public var loopsUntilRelease: Bool = false
    /// Linear gain on the voice's output, sends included: FluidSynth's `synth.gain`, which the
    /// loader sets (`SoundFontBankLoader.fluidSynthGain`); 1 here so hand-made zones are unscaled.
    public var gain: Double = 1

    public static let maxModulators = 64

    /// The root key pitch is computed from (overridingRootKey, else the sample's), for level planning.
    public var rootKey: Int {
        let override = generators[SF2Generator.overridingRootKey]
        return override > -1 ? Int(min(override, 127)) : min(max(originalPitch, 0), 127)
    }
}

/// The raw memory behind a program's SoundFont zones: each zone's generator values and modulator
/// list copied once, and a table of `SF2ZoneTables` pointing into them for the render thread.
/// Control thread builds it; immutable afterwards; freed with the program.
final class SF2ArticulationStorage {
    private var generatorBlocks: [UnsafeMutablePointer<Double>] = []
    private var modulatorBlocks: [UnsafeMutablePointer<SF2Modulator>] = []
    private var entries: [SF2ZoneTables] = []
    private(set) var table = UnsafeMutableBufferPointer<SF2ZoneTables>(start: nil, count: 0)

    /// Adds a zone's articulation; returns its index in `table` (valid after `seal`).
    func add(_ articulation: SF2ZoneArticulation, frameCount: Int) -> Int {
        let generators = UnsafeMutablePointer<Double>.allocate(capacity: SF2Generator.count)
        for g in 0..<SF2Generator.count { (generators + g).initialize(to: articulation.generators[g]) }
        let kept = articulation.modulators.prefix(SF2ZoneArticulation.maxModulators)
        let modulators = UnsafeMutablePointer<SF2Modulator>.allocate(capacity: max(kept.count, 1))
        for (i, modulator) in kept.enumerated() { (modulators + i).initialize(to: modulator) }
        generatorBlocks.append(generators)
        modulatorBlocks.append(modulators)
        entries.append(SF2ZoneTables(
            generators: UnsafePointer(generators), modulators: UnsafePointer(modulators), modulatorCount: kept.count,
            originalPitch: articulation.originalPitch, pitchCorrection: articulation.pitchCorrection,
            startFrame: min(max(articulation.startFrame, 0), max(frameCount - 1, 0)), loopsUntilRelease: articulation.loopsUntilRelease,
            exclusiveClass: Int(max(0, min(articulation.generators[SF2Generator.exclusiveClass], 127))),
            gain: articulation.gain.isFinite ? max(articulation.gain, 0) : 1))
        return entries.count - 1
    }

    /// Makes the render-side table (call once, after the last `add`).
    func seal() {
        table = .allocate(capacity: entries.count)
        _ = table.initialize(from: entries)
    }

    deinit {
        for block in generatorBlocks { block.deallocate() }
        for block in modulatorBlocks { block.deallocate() }
        table.deallocate()
    }
}

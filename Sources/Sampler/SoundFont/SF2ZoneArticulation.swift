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

/// The raw memory behind a program's SoundFont zones: each distinct generator list and modulator
/// list copied once (most zones of a font share the default modulators, many a drum kit's
/// generators), and a table of `SF2ZoneTables` pointing into them for the render thread.
/// Control thread builds it; immutable afterwards; freed with the program.
final class SF2ArticulationStorage {
    private var generatorBlocks: [[Double]: UnsafeMutablePointer<Double>] = [:]
    private var modulatorBlocks: [[SF2Modulator]: UnsafeMutablePointer<SF2Modulator>] = [:]
    private var entries: [SF2ZoneTables] = []
    private(set) var table = UnsafeMutableBufferPointer<SF2ZoneTables>(start: nil, count: 0)

    /// Adds a zone's articulation; returns its index in `table` (valid after `seal`).
    func add(_ articulation: SF2ZoneArticulation, frameCount: Int) -> Int {
        let generators = Self.block(holding: articulation.generators.values, in: &generatorBlocks)
        let kept = Array(articulation.modulators.prefix(SF2ZoneArticulation.maxModulators))
        let modulators = Self.block(holding: kept, in: &modulatorBlocks)
        entries.append(SF2ZoneTables(
            generators: UnsafePointer(generators), modulators: UnsafePointer(modulators), modulatorCount: kept.count,
            originalPitch: articulation.originalPitch, pitchCorrection: articulation.pitchCorrection,
            startFrame: min(max(articulation.startFrame, 0), max(frameCount - 1, 0)), loopsUntilRelease: articulation.loopsUntilRelease,
            exclusiveClass: Int(max(0, min(articulation.generators[SF2Generator.exclusiveClass], 127))),
            gain: articulation.gain.isFinite ? max(articulation.gain, 0) : 1))
        return entries.count - 1
    }

    /// The block holding `list`'s elements, made on first sight of that content.
    private static func block<Element: Hashable>(
        holding list: [Element], in blocks: inout [[Element]: UnsafeMutablePointer<Element>]
    ) -> UnsafeMutablePointer<Element> {
        if let block = blocks[list] { return block }
        let block = UnsafeMutablePointer<Element>.allocate(capacity: max(list.count, 1))
        block.initialize(from: list, count: list.count)
        blocks[list] = block
        return block
    }

    /// Makes the render-side table (call once, after the last `add`).
    func seal() {
        table = .allocate(capacity: entries.count)
        _ = table.initialize(from: entries)
    }

    deinit {
        for block in generatorBlocks.values { block.deallocate() }
        for block in modulatorBlocks.values { block.deallocate() }
        table.deallocate()
    }
}

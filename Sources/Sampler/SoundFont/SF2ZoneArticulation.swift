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
        let generators = Self.block(for: articulation.generators.values, count: SF2Generator.count, in: &generatorBlocks) {
            articulation.generators[$0]
        }
        let kept = Array(articulation.modulators.prefix(SF2ZoneArticulation.maxModulators))
        let modulators = Self.block(for: kept, count: kept.count, in: &modulatorBlocks) { kept[$0] }
        entries.append(SF2ZoneTables(
            generators: UnsafePointer(generators), modulators: UnsafePointer(modulators), modulatorCount: kept.count,
            originalPitch: articulation.originalPitch, pitchCorrection: articulation.pitchCorrection,
            startFrame: min(max(articulation.startFrame, 0), max(frameCount - 1, 0)), loopsUntilRelease: articulation.loopsUntilRelease,
            exclusiveClass: Int(max(0, min(articulation.generators[SF2Generator.exclusiveClass], 127))),
            gain: articulation.gain.isFinite ? max(articulation.gain, 0) : 1))
        return entries.count - 1
    }

    /// The block holding `key`'s `count` elements (`element(i)`), made on first sight of that content.
    private static func block<Element: Hashable>(
        for key: [Element], count: Int, in blocks: inout [[Element]: UnsafeMutablePointer<Element>], element: (Int) -> Element
    ) -> UnsafeMutablePointer<Element> {
        if let block = blocks[key] { return block }
        let block = UnsafeMutablePointer<Element>.allocate(capacity: max(count, 1))
        for i in 0..<count { (block + i).initialize(to: element(i)) }
        blocks[key] = block
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

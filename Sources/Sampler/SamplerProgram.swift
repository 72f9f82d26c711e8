import DSP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Everything a voice needs about one zone, precomputed (gains linear, tunes folded). Plain data.
struct ZonePlayback {
    var minKey: Int
    var maxKey: Int
    var minVelocity: Int
    var maxVelocity: Int
    var layer: Int
    var region: Int
    /// Key + layer key offset − this = semitones of transposition (0 when pitch tracking is off).
    var rootKey: Double
    var pitchTracking: Bool
    /// Zone + layer + global tune, cents.
    var fixedCents: Double
    /// Zone × layer × global gain, linear.
    var gain: Float
    /// Zone + global pan, −1…1 before CC10.
    var pan: Double
    var isOneShot: Bool
}

/// An immutable, ready-to-play instrument: playback regions, zones, layers and globals.
/// Build it on the control thread (it allocates and copies sample data), hand it to
/// `SamplerInstrument.submit(_:)`, and let `collectGarbage()` release it on the control thread.
///
/// Its regions' band-limited levels are built at `init` (`.atLoad`), or later by need
/// (`.byNeed`): `buildLevels(forKeys:)` before an offline render, `LevelPublisher` in the
/// background when playing live. Until a region's levels are published, a note on it reads the
/// original frames with the 4-point cubic (aliasing like the former live kernel) for its whole life.
public final class SamplerProgram: @unchecked Sendable {
    /// When the band-limited levels are built.
    public enum LevelBuilding: Sendable {
        case atLoad
        case byNeed
    }

    public let layers: [SamplerLayer]
    public let zones: [SamplerZone]
    public let globals: SamplerGlobals

    /// Shared with the program's variants (`variant(layers:zones:globals:)`).
    let storage: RegionStorage
    /// Render-side copies in raw memory so the render thread touches no Swift arrays (no ARC).
    let zonePlayback: UnsafeMutableBufferPointer<ZonePlayback>
    let regionTable: UnsafeMutableBufferPointer<PlaybackRegion>
    let layerTable: UnsafeMutableBufferPointer<SamplerLayer>

    /// Control thread. Validates ranges and loops; throws naming the first bad zone or layer.
    /// Programs made with the same `regions` share the regions (and levels) of the waveforms they
    /// have in common.
    public convenience init(
        layers: [SamplerLayer], zones: [SamplerZone], globals: SamplerGlobals = SamplerGlobals(), levels: LevelBuilding = .atLoad,
        regions: RegionStorage = RegionStorage()
    ) throws(SamplerProgramError) {
        try self.init(layers: layers, zones: zones, globals: globals, storage: regions)
        if levels == .atLoad { buildAllLevels() }
    }

    /// A program playing this one's samples with other settings (envelope, filter, gain, loops,
    /// one-shot …): the same waveforms make the same regions, so it shares this program's regions
    /// and their band-limited levels (built once for both, by whichever asks first). Control thread.
    public func variant(
        layers: [SamplerLayer]? = nil, zones: [SamplerZone]? = nil, globals: SamplerGlobals? = nil
    ) throws(SamplerProgramError) -> SamplerProgram {
        try SamplerProgram(layers: layers ?? self.layers, zones: zones ?? self.zones, globals: globals ?? self.globals, storage: storage)
    }

    private init(layers: [SamplerLayer], zones: [SamplerZone], globals: SamplerGlobals, storage: RegionStorage) throws(SamplerProgramError) {
        guard !layers.isEmpty else { throw .invalidLayer(index: 0, reason: "a program needs at least one layer") }
        for (index, layer) in layers.enumerated() where layer.minKey > layer.maxKey {
            throw .invalidLayer(index: index, reason: "key range \(layer.minKey)...\(layer.maxKey) is empty")
        }
        // Regions are made under the storage's lock: a variant may be made while a builder thread
        // works on the regions it shares.
        var playback: [ZonePlayback] = []
        var regions: [PlaybackRegion] = []
        var levelRegions: [Int] = []
        try storage.lock.withLock { _ throws(SamplerProgramError) in
            for zone in zones where zone.isEnabled && layers.indices.contains(zone.layerIndex) {
                let layer = layers[zone.layerIndex]
                storage.reach(
                    zone.waveform, loop: zone.isOneShot || layer.isOneShot ? nil : zone.loop,
                    step: SamplerProgram.largestStep(zone, layer, globals))
            }
            for (index, zone) in zones.enumerated() {
                guard layers.indices.contains(zone.layerIndex) else {
                    throw .invalidZone(index: index, reason: "layer index \(zone.layerIndex) but the program has \(layers.count) layers")
                }
                if let loop = zone.loop, !loop.fits(frameCount: zone.waveform.frameCount) {
                    throw .invalidZone(index: index, reason: "loop \(loop) outside the waveform's \(zone.waveform.frameCount) frames")
                }
                guard zone.isEnabled else { continue }
                let layer = layers[zone.layerIndex]
                let oneShot = zone.isOneShot || layer.isOneShot
                let region = storage.region(for: zone.waveform, loop: oneShot ? nil : zone.loop)
                let gainDecibels = zone.gainDecibels + layer.gainDecibels + globals.gainDecibels
                playback.append(ZonePlayback(
                    minKey: zone.minKey, maxKey: zone.maxKey,
                    minVelocity: zone.minVelocity, maxVelocity: zone.maxVelocity,
                    layer: zone.layerIndex, region: region, rootKey: Double(zone.rootKey),
                    pitchTracking: zone.pitchTracking,
                    fixedCents: zone.tuneCents + layer.tuneCents + globals.tuneCents,
                    gain: Float(Decibels.gain(gainDecibels)),
                    pan: zone.pan + globals.pan, isOneShot: oneShot))
            }
            regions = storage.regions
            levelRegions = Set(playback.map(\.region)).filter { storage.getsLevels[$0] }.sorted()
        }
        self.layers = layers
        self.zones = zones
        self.globals = globals
        self.storage = storage
        self.levelRegions = levelRegions
        zonePlayback = .allocate(capacity: playback.count)
        _ = zonePlayback.initialize(from: playback)
        regionTable = .allocate(capacity: regions.count)
        _ = regionTable.initialize(from: regions)
        layerTable = .allocate(capacity: layers.count)
        _ = layerTable.initialize(from: layers)
    }

    /// The regions this program's zones play that get band-limited levels, by index.
    let levelRegions: [Int]

    /// Any thread but the render thread: builds and publishes the levels of every region of this
    /// program not built yet.
    public func buildAllLevels() {
        let storage = storage, levelRegions = levelRegions
        storage.lock.withLock { _ in
            for index in levelRegions { storage.buildLevels(index) }
        }
    }

    /// Any thread but the render thread: builds the levels of the regions a note on one of `keys`
    /// can start (at any velocity), matched as note-on matches them.
    public func buildLevels(forKeys keys: Set<Int>) {
        var wanted = Set<Int>()
        for zone in zonePlayback {
            let layer = layerTable[zone.layer]
            let answers = keys.contains { key in
                key >= layer.minKey && key <= layer.maxKey && key + layer.keyOffset >= zone.minKey && key + layer.keyOffset <= zone.maxKey
            }
            if answers { wanted.insert(zone.region) }
        }
        let storage = storage
        storage.lock.withLock { _ in
            for index in wanted.sorted() { storage.buildLevels(index) }
        }
    }

    /// Regions whose levels are still to be built (any thread).
    public var regionsAwaitingLevels: Int { awaiting(levelRegions) }

    /// How many of `regions` (indices into this program's storage) are not published yet; lock-free.
    func awaiting(_ regions: some Sequence<Int>) -> Int {
        regions.reduce(0) { $0 + (regionTable[$1].levelSlot.pointee.load(ordering: .relaxed) == 0 ? 1 : 0) }
    }

    /// The largest step (source frames per output frame) a zone's notes can ask for: its highest
    /// key, tunings, the layer's bend range and LFO depth, 2 semitones more (master and RPN
    /// tuning), at an output rate of 44.1 kHz or more; and never less than 4 (+24 semitones at
    /// the sample's own rate), so that a bend or an RPN range the preset does not foresee stays
    /// alias-free up to two octaves. Levels are built up to it (beyond it a voice reads the top
    /// level built and may alias).
    static func largestStep(_ zone: SamplerZone, _ layer: SamplerLayer, _ globals: SamplerGlobals) -> Double {
        let key = min(zone.maxKey, layer.maxKey) + layer.keyOffset
        var semitones = zone.pitchTracking ? Double(key - zone.rootKey) : 0
        semitones += (zone.tuneCents + layer.tuneCents + globals.tuneCents + (layer.lfo?.pitch.map { abs($0.amount) } ?? 0)) / 100
        semitones += max(layer.pitchBendRangeSemitones, 2) + 2
        return max(exp2(semitones / 12) * zone.waveform.sampleRate / 44_100, guaranteedStep)
    }

    /// Every region is band-limited for steps up to this (+24 semitones).
    static let guaranteedStep = 4.0

    /// A one-layer program playing `waveform` across the keyboard (tests, the built-in sine).
    public static func single(
        _ waveform: SamplerWaveform, rootKey: Int, layer: SamplerLayer = SamplerLayer(),
        globals: SamplerGlobals = SamplerGlobals()
    ) -> SamplerProgram {
        // Cannot fail: one layer with the default full key range, the zone uses layer 0 and the
        // waveform's own (already validated) loop.
        try! SamplerProgram(layers: [layer], zones: [SamplerZone(waveform: waveform, rootKey: rootKey)], globals: globals)
    }

    /// Number of playback regions: one per distinct (waveform, loop) pair, however many zones share
    /// it. Each region holds its band-limited levels (`BandLimitedLevels`): up to 13 floats per source frame.
    public var storedRegionCount: Int { regionTable.count }

    deinit {
        zonePlayback.deallocate()
        regionTable.deallocate()
        layerTable.deinitialize().deallocate()
    }
}

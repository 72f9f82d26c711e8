import DSP

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
    /// Index into the program's SoundFont zone tables (−1: an AUSampler zone).
    var soundFont = -1
    /// Sample mode 3: the unlooped region the voice continues in after its release (−1: none).
    var releaseRegion = -1
}

/// An immutable, ready-to-play instrument: playback regions, zones, layers and globals.
/// Build it on the control thread (it allocates and copies sample data), hand it to
/// `SamplerInstrument.submit(_:)`, and let `collectGarbage()` release it on the control thread.
///
/// It plays as soon as it exists, every region in its plain form (the original frames, read with
/// the 4-point cubic: aliasing when transposed up). Band-limited levels come from the loading side
/// (`SamplerLevels`) through a seam of three calls: `levelRequests` says what each region still
/// needs, `publishLevels(_:for:)` hands built levels to a region and publishes them (a release
/// store the render thread acquires at note-on), `regionsAwaitingLevels` counts what is left. A
/// note started before its region's levels are published keeps the plain form for its whole life.
///
/// @unchecked Sendable: its tables are written in `init` and only read after; `storage` (the
/// regions' requests and published forms) is touched only under `storageLock`, the slots only
/// through atomics.
public final class SamplerProgram: @unchecked Sendable {
    public let layers: [SamplerLayer]
    public let zones: [SamplerZone]
    public let globals: SamplerGlobals

    let storage = RegionStorage()
    /// What the render thread reports of the program (`ProgramCell`: selection stamp, silent notes).
    let cell: UnsafeMutablePointer<ProgramCell> = {
        let cell = UnsafeMutablePointer<ProgramCell>.allocate(capacity: 1)
        cell.initialize(to: ProgramCell())
        return cell
    }()
    /// The SoundFont zones' generators and modulators (empty for an .aupreset program).
    let soundFontStorage = SF2ArticulationStorage()
    /// Render-side copies in raw memory so the render thread touches no Swift arrays (no ARC).
    let zonePlayback: UnsafeMutableBufferPointer<ZonePlayback>
    let regionTable: UnsafeMutableBufferPointer<PlaybackRegion>
    let layerTable: UnsafeMutableBufferPointer<SamplerLayer>

    /// Control thread. Validates ranges and loops; throws naming the first bad zone or layer.
    public init(
        layers: [SamplerLayer], zones: [SamplerZone], globals: SamplerGlobals = SamplerGlobals()
    ) throws(SamplerProgramError) {
        guard !layers.isEmpty else { throw .invalidLayer(index: 0, reason: "a program needs at least one layer") }
        for (index, layer) in layers.enumerated() where layer.minKey > layer.maxKey {
            throw .invalidLayer(index: index, reason: "key range \(layer.minKey)...\(layer.maxKey) is empty")
        }
        for zone in zones where zone.isEnabled && layers.indices.contains(zone.layerIndex) {
            let layer = layers[zone.layerIndex]
            let reach = Self.largestStep(zone, layer, globals)
            let atRoot = zone.playsAtRootPitch
            storage.reach(
                zone.waveform, loop: zone.isOneShot || layer.isOneShot ? nil : zone.loop, step: reach, withFloor: max(reach, Self.guaranteedStep),
                atRootPitch: atRoot)
            // Sample mode 3: the voice goes on in the unlooped region after its release.
            if zone.soundFont?.loopsUntilRelease == true {
                storage.reach(zone.waveform, loop: nil, step: reach, withFloor: max(reach, Self.guaranteedStep), atRootPitch: atRoot)
            }
        }
        var playback: [ZonePlayback] = []
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
            var soundFont = -1, releaseRegion = -1
            if let articulation = zone.soundFont {
                soundFont = soundFontStorage.add(articulation, frameCount: zone.waveform.frameCount)
                if articulation.loopsUntilRelease && zone.loop != nil && !oneShot { releaseRegion = storage.region(for: zone.waveform, loop: nil) }
            }
            playback.append(ZonePlayback(
                minKey: zone.minKey, maxKey: zone.maxKey,
                minVelocity: zone.minVelocity, maxVelocity: zone.maxVelocity,
                layer: zone.layerIndex, region: region, rootKey: Double(zone.rootKey),
                pitchTracking: zone.pitchTracking,
                fixedCents: zone.tuneCents + layer.tuneCents + globals.tuneCents,
                gain: Float(Decibels.gain(gainDecibels)),
                pan: zone.pan + globals.pan, isOneShot: oneShot, soundFont: soundFont, releaseRegion: releaseRegion))
        }
        soundFontStorage.seal()
        self.layers = layers
        self.zones = zones
        self.globals = globals
        zonePlayback = .allocate(capacity: playback.count)
        _ = zonePlayback.initialize(from: playback)
        regionTable = .allocate(capacity: storage.regions.count)
        _ = regionTable.initialize(from: storage.regions)
        layerTable = .allocate(capacity: layers.count)
        _ = layerTable.initialize(from: layers)
    }

    /// Guards `storage` (control, renderer and builder threads; never the render thread).
    let storageLock = ControlLock()

    /// Any thread but the render thread: what every region without published levels needs next
    /// (a deferred waveform's region without a form: its frames, `.plain`), in region order.
    public var levelRequests: [LevelRequest] {
        storageLock.withLock { storage.regions.indices.compactMap { storage.request($0) } }
    }

    /// Any thread but the render thread: the requests of the regions a note on one of `keys` can
    /// start (at any velocity), matched as note-on matches them.
    public func levelRequests(forKeys keys: Set<Int>) -> [LevelRequest] {
        var wanted = Set<Int>()
        for zone in zonePlayback {
            let layer = layerTable[zone.layer]
            let answers = keys.contains { key in
                key >= layer.minKey && key <= layer.maxKey && key + layer.keyOffset >= zone.minKey && key + layer.keyOffset <= zone.maxKey
            }
            if answers {
                wanted.insert(zone.region)
                if zone.releaseRegion >= 0 { wanted.insert(zone.releaseRegion) }
            }
        }
        return storageLock.withLock { wanted.sorted().compactMap { storage.request($0) } }
    }

    /// Any thread but the render thread: the requests of the regions the render thread struck (a
    /// note-on reports it, `lastStrike`) that have no levels (or, deferred, no form: `.plain`),
    /// the most recently struck first.
    public var struckLevelRequests: [LevelRequest] {
        storageLock.withLock {
            storage.regions.indices.compactMap { index in
                let stamp = storage.lastStrike(index)
                return stamp == 0 ? nil : storage.request(index).map { ($0, stamp) }
            }.sorted { $0.1 > $1.1 }.map(\.0)
        }
    }

    /// Any thread but the render thread: the regions that play band-limited now, with their levels
    /// and the stamp of their last note-on (0: never struck), for choosing what to withdraw.
    public var publishedLevels: [(region: Int, levels: RegionLevels, lastStrike: UInt64)] {
        storageLock.withLock {
            storage.publishedLevels.map { ($0.region, $0.owner, storage.lastStrike($0.region)) }
        }
    }

    /// Any thread but the render thread: makes `levels` (built for `request`, a request of this
    /// program) the region's band-limited form, from the next note-on on it. Returns false, and
    /// publishes nothing, when the region has its levels already (another builder was first) or
    /// its withdrawn levels still wait for their voices (`reclaimWithdrawnLevels`) and `levels`
    /// are not those (the same ones are published again as they are).
    @discardableResult
    public func publishLevels(_ levels: RegionLevels, for request: LevelRequest) -> Bool {
        storageLock.withLock { storage.publish(levels, for: request) }
    }

    /// Any thread but the render thread: region `region` plays plain from the next note-on on;
    /// notes sounding keep the levels they read, which the program lets go once the last of them
    /// ends (`reclaimWithdrawnLevels`). Returns false if the region had no levels.
    @discardableResult
    public func withdrawLevels(region: Int) -> Bool {
        storageLock.withLock { storage.withdraw(.levels, region) }
    }

    /// Any thread but the render thread: lets go of withdrawn levels (and frames) no voice reads any
    /// more (their memory is freed when no other program holds them); returns how many still wait for voices.
    @discardableResult
    public func reclaimWithdrawnLevels() -> Int {
        storageLock.withLock { storage.reclaim() }
    }

    /// Any thread: the stamp of the last note-on on `region` (0: never struck). Stamps of one
    /// instrument grow with time (its frame clock), so they order its strikes.
    public func lastStrike(region: Int) -> UInt64 { storageLock.withLock { storage.lastStrike(region) } }

    /// Regions whose levels are still to be published (any thread).
    public var regionsAwaitingLevels: Int { storage.awaiting.load(ordering: .relaxed) }

    /// The largest step (source frames per output frame) a zone's notes can ask for: its highest
    /// key, tunings, the layer's bend range and LFO depth, 2 semitones more (master and RPN
    /// tuning; for a known song what it asks), at an output rate of 44.1 kHz or more. Levels are built up to it, and room
    /// permitting to `guaranteedStep` (beyond the top level built a voice reads it and may alias).
    static func largestStep(_ zone: SamplerZone, _ layer: SamplerLayer, _ globals: SamplerGlobals) -> Double {
        let key = min(zone.maxKey, layer.maxKey) + layer.keyOffset
        var semitones = zone.pitchTracking ? Double(key - zone.rootKey) : 0
        semitones += (zone.tuneCents + layer.tuneCents + globals.tuneCents + (layer.lfo?.pitch.map { abs($0.amount) } ?? 0)) / 100
        semitones += globals.knownPitchShiftSemitones ?? max(layer.pitchBendRangeSemitones, 2) + 2
        return exp2(semitones / 12) * zone.waveform.sampleRate / 44_100
    }

    /// Regions are band-limited for steps up to this (+24 semitones at the sample's own rate) when
    /// the level budget has room, so that a bend or an RPN range the preset does not foresee stays
    /// alias-free up to two octaves.
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
    /// it. Each region holds its band-limited levels (`LevelLayout`): up to 13 floats per source frame.
    public var storedRegionCount: Int { regionTable.count }

    deinit {
        cell.deinitialize(count: 1).deallocate()
        zonePlayback.deallocate()
        regionTable.deallocate()
        layerTable.deinitialize().deallocate()
    }
}

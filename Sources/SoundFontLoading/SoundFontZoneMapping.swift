import Sampler
import SoundFont

/// How one SoundFont region (a preset zone × instrument zone pair) becomes a sampler zone: the
/// frames it can play (its sample with the address offsets applied, as FluidSynth clamps them),
/// its loop and sample mode, and its articulation (generators with FluidSynth's ×0.4 on
/// initialAttenuation, the modulator list). Pure; control thread.
struct SoundFontZoneMapping {
    /// The part of the sample a zone plays: frames `range` of the decoded sample (what the
    /// waveform holds), the frame the voice starts at, and the loop within the range.
    struct Frames: Hashable {
        var sample: Int
        var range: Range<Int>
        var startFrame: Int
        var loop: SamplerLoop?
        var loopsUntilRelease: Bool

        /// These frames cut to their first `count` (a damaged Vorbis stream decoded no further):
        /// the start kept inside them, the loop cut at the end, or dropped when under 2 frames of
        /// it remain, as FluidSynth sanitizes loops to what decoded.
        func cut(at count: Int) -> Frames {
            guard count < range.count else { return self }
            var cut = self
            cut.range = range.lowerBound..<range.lowerBound + max(count, 0)
            cut.startFrame = min(startFrame, max(count - 1, 0))
            if let loop, min(loop.endFrame, count) - loop.startFrame >= 2 {
                cut.loop = SamplerLoop(startFrame: loop.startFrame, endFrame: min(loop.endFrame, count))
            } else {
                cut.loop = nil
                cut.loopsUntilRelease = false
            }
            return cut
        }
    }

    /// FluidSynth multiplies every initialAttenuation generator by this at load ("EMU8k/10k
    /// compatibility"): 100 cB in a font is heard as 4 dB.
    static let attenuationFactor = 0.4

    /// The frames `region` plays of a sample of `frameCount` frames with `loopStart`/`loopEnd`
    /// (relative to its start), or nil when the offsets leave nothing to play (FluidSynth: the
    /// voice ends at once). Loops shorter than 2 frames play unlooped, as in FluidSynth.
    static func frames(of region: SoundFontRegion, frameCount: Int, loopStart: Int, loopEnd: Int) -> Frames? {
        let g = region.generators
        var start = clamp(g[.startAddressOffset] + 32_768 * g[.startAddressCoarseOffset], 0, frameCount)
        var end = clamp(frameCount + g[.endAddressOffset] + 32_768 * g[.endAddressCoarseOffset], 0, frameCount)
        if start > end { swap(&start, &end) }
        guard end > start else { return nil }
        let mode = g[.sampleModes] & 3
        var loop: SamplerLoop?
        if mode == 1 || mode == 3 {
            var loopFrom = clamp(loopStart + g[.startLoopAddressOffset] + 32_768 * g[.startLoopAddressCoarseOffset], 0, frameCount)
            var loopTo = clamp(loopEnd + g[.endLoopAddressOffset] + 32_768 * g[.endLoopAddressCoarseOffset], 0, frameCount)
            if loopFrom > loopTo { swap(&loopFrom, &loopTo) }
            if loopTo - loopFrom >= 2 { loop = SamplerLoop(startFrame: loopFrom, endFrame: loopTo) }
        }
        // The waveform reaches back to the loop start when the loop begins before the voice does.
        let first = min(start, loop?.startFrame ?? start)
        let last = max(end, loop?.endFrame ?? end)
        let shifted = loop.map { SamplerLoop(startFrame: $0.startFrame - first, endFrame: $0.endFrame - first) }
        return Frames(
            sample: region.sample, range: first..<last, startFrame: start - first, loop: shifted, loopsUntilRelease: mode == 3 && shifted != nil)
    }

    /// The voice's generators as the sampler's SoundFont model reads them.
    static func generators(of region: SoundFontRegion) -> SF2Generators {
        var values = SF2Generators()
        for generator in SoundFontGenerator.allCases where !generator.isRange && !generator.isIndex {
            var value = Double(region.generators[generator])
            if generator == .initialAttenuation { value *= attenuationFactor }
            values[generator.rawValue] = value
        }
        return values
    }

    static func modulators(of region: SoundFontRegion) -> [SF2Modulator] {
        region.modulators.prefix(SF2ZoneArticulation.maxModulators).map {
            SF2Modulator(
                source: $0.source.rawValue, destination: UInt16($0.destination.rawValue), amount: Double($0.amount),
                amountSource: $0.amountSource.rawValue, transform: $0.transform)
        }
    }

    /// One copy of each distinct generator and modulator list among a font's zones: most zones
    /// have the default modulators alone, a drum kit's zones often differ only in key range and
    /// sample; zones with equal lists share the first one's storage.
    struct ArticulationInterner {
        private var generators: Set<SF2Generators> = []
        private var modulators: Set<[SF2Modulator]> = []
        mutating func intern(_ list: SF2Generators) -> SF2Generators { generators.insert(list).memberAfterInsert }
        mutating func intern(_ list: [SF2Modulator]) -> [SF2Modulator] { modulators.insert(list).memberAfterInsert }
    }

    /// The sampler zone for `region` playing `waveform` (which holds `frames`), its voices × `gain`.
    /// `keys`: the keys it will be struck with, when known (a render's song): the zone is narrowed
    /// to them, so its levels stop at the steps they ask for. `steadyPitch`: the channels striking
    /// them never move their pitch (`LevelBuildPlan.steadyPitch`).
    static func zone(
        _ region: SoundFontRegion, sample: SoundFontSample, frames: Frames, waveform: SamplerWaveform, gain: Double, keys: ClosedRange<Int>? = nil,
        steadyPitch: Bool = false, interner: inout ArticulationInterner
    ) -> SamplerZone {
        let articulation = SF2ZoneArticulation(
            generators: interner.intern(generators(of: region)), modulators: interner.intern(modulators(of: region)), originalPitch: sample.originalPitch,
            pitchCorrection: sample.pitchCorrection, startFrame: frames.startFrame, loopsUntilRelease: frames.loopsUntilRelease, gain: gain)
        var zone = SamplerZone(waveform: waveform, rootKey: articulation.rootKey)
        zone.minKey = keys?.lowerBound ?? region.keyRange.lowerBound
        zone.maxKey = keys?.upperBound ?? region.keyRange.upperBound
        zone.minVelocity = max(region.velocityRange.lowerBound, 1)
        zone.maxVelocity = region.velocityRange.upperBound
        zone.loop = frames.loop
        // For level building only (the articulation sets the pitch): how far up notes can go.
        let g = region.generators
        zone.tuneCents = Double(
            100 * g[.coarseTune] + g[.fineTune] + max(0, g[.modEnvToPitch]) + abs(g[.modLFOToPitch]) + abs(g[.vibLFOToPitch])
                + modulatedPitchCents(region)) + keyedPitchCents(zone, region: region, sample: sample)
        zone.soundFont = articulation
        zone.playsAtRootPitch = steadyPitch && keys.map { playsAtRootPitch(region, sample: sample, keys: $0) } == true
        return zone
    }

    /// The generators that move a voice's pitch away from its key's: its tunings, and the
    /// modulation envelope and both LFOs to pitch (in cents, the coarse tune in semitones).
    static let pitchGenerators: Set<SoundFontGenerator> = [.coarseTune, .fineTune, .modEnvToPitch, .modLFOToPitch, .vibLFOToPitch]

    /// Whether every key of `keys` sounds at exactly the root pitch, with nothing modulating it:
    /// the voice's pitch (scale tuning × (key − root) + root + coarse and fine tune, as
    /// `SF2Voice.derive`) equals its root's, and no LFO, envelope or modulator other than the
    /// defaults (still on a steady channel) reaches the pitch.
    static func playsAtRootPitch(_ region: SoundFontRegion, sample: SoundFontSample, keys: ClosedRange<Int>) -> Bool {
        let g = region.generators
        let fixedKey = g[.keyNumber], override = g[.overridingRootKey]
        let root = override > -1 ? override : sample.originalPitch
        let unmodulated = pitchGenerators.allSatisfy { g[$0] == 0 }
        let pitchModulators = region.modulators.filter { pitchGenerators.contains($0.destination) }
        let onlyDefaults = pitchModulators.allSatisfy { modulator in SoundFontCombination.defaultModulators.contains(where: modulator.isIdentical) }
        // The voice's root cents are clipped to 1500…13500: within it, its pitch is the root's exactly.
        guard unmodulated, onlyDefaults, (1500...13_500).contains(100 * root - sample.pitchCorrection) else { return false }
        if g[.scaleTuning] == 0 { return true }
        let struck = fixedKey >= 0 ? fixedKey...fixedKey : keys
        return sample.pitchCorrection == 0 && struck == root...root
    }

    /// Cents `zone`'s highest pitch lies above what level planning counts (its top key's distance
    /// from its root, a semitone a key): the sample's pitch correction, a scale tuning other than
    /// 100 cents a key, a fixed key number. Never negative.
    static func keyedPitchCents(_ zone: SamplerZone, region: SoundFontRegion, sample: SoundFontSample) -> Double {
        let scale = Double(region.generators[.scaleTuning]), fixedKey = region.generators[.keyNumber]
        let rootCents = Double(100 * zone.rootKey - sample.pitchCorrection)
        let highest = [zone.minKey, zone.maxKey].map { scale * (Double(100 * (fixedKey >= 0 ? fixedKey : $0)) - rootCents) / 100 }.max()!
        return max(0, highest - 100 * Double(zone.maxKey - zone.rootKey))
    }

    /// Cents the zone's modulators can raise its pitch by beyond what a song's own margin covers
    /// (`LevelBuildPlan.pitchShiftSemitones`: the default pitch-wheel modulator whole, 50 cents of
    /// each default vibrato modulator, mod wheel and channel pressure).
    static func modulatedPitchCents(_ region: SoundFontRegion) -> Int {
        region.modulators.reduce(0) { sum, modulator in
            guard pitchGenerators.contains(modulator.destination) else { return sum }
            let cents = (modulator.destination == .coarseTune ? 100 : 1) * abs(modulator.amount)
            let covered = SoundFontCombination.defaultModulators.first(where: modulator.isIdentical).map { $0.destination == .fineTune ? cents : 50 } ?? 0
            return sum + max(0, cents - covered)
        }
    }

    private static func clamp(_ x: Int, _ low: Int, _ high: Int) -> Int { min(max(x, low), high) }
}

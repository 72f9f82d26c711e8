import AudioFiles
import Presets
import Sampler
import SamplerLevels

/// Builds a playable `SamplerProgram` from a decoded `.aupreset`: finds and loads every sample
/// the enabled zones use (each file once), maps zones, layers, connections and globals, and
/// reports what it could not honour. Control thread only (file I/O, allocation).
public enum SamplerProgramBuilder {
    /// Root key for a zone when neither the preset nor the sample file gives one.
    public static let defaultRootKey = 60
    /// Root key of the built-in sine (`waveform −2`, "Sine 440 Built-In") when the zone has none.
    public static let builtInSineRootKey = 69

    /// - Parameters:
    ///   - preset: as decoded by `AUPreset.load(path:)`.
    ///   - presetPath: the preset file, base of relative sample paths and TN2283 fallbacks.
    ///   - searchDirectories: extra roots for the TN2283 `/Sounds/` fallback (`--sample-path`).
    ///   - sampleRate: the output rate the program will play at, Hz.
    ///   - userDirectories: last-resort roots; nil = `SamplePathResolver.defaultUserDirectories()`.
    ///   - levels: build the band-limited levels now (as far as the level budget holds them: a
    ///     warning says what did not fit), or leave them to be built by need.
    ///   - sampleFiles: where decoded sample files are shared between presets (by device and inode).
    ///   - resolutions: where the instrument's other presets found their samples (searched once).
    /// - Throws: `SamplerLoadError.noZones` / `.noPlayableZone` (naming every sample and every
    ///   path tried) when nothing can play. Zones whose sample is missing are dropped with a warning.
    ///
    /// Samples are decoded at their own rate, not converted: the voices resample anyway (every
    /// key but the root is a rate change), and loop points stay exact in the file's frames.
    public static func build(
        preset: AUPreset, presetPath: String, searchDirectories: [String], sampleRate: Double,
        userDirectories: [String]? = nil, levels: SamplerProgram.LevelBuilding = .atLoad, sampleFiles: SampleFiles = .shared,
        resolutions: SampleResolutions? = nil
    ) throws(SamplerLoadError) -> SamplerLoadResult {
        let resolver = SamplePathResolver(
            presetPath: presetPath, searchDirectories: searchDirectories, userDirectories: userDirectories)
        var warnings = preset.warnings
        var library = SampleLibrary(files: sampleFiles, resolutions: resolutions)
        let samples = library.load(preset: preset, resolver: resolver)
        warnings += library.warnings
        var mapping = PresetLayerMapping()
        let layers = preset.layers.enumerated().map { mapping.map($0.element, index: $0.offset) }
        warnings += mapping.warnings

        var zones: [SamplerZone] = []
        var enabledZoneCount = 0
        for (layerIndex, layer) in preset.layers.enumerated() {
            for zone in layer.zones where zone.enabled {
                enabledZoneCount += 1
                let place = "layer \(layerIndex) zone ID \(zone.id)"
                if let mapped = mapZone(zone, layerIndex: layerIndex, library: library, place: place, warnings: &warnings) {
                    zones.append(mapped)
                }
            }
        }
        guard enabledZoneCount > 0 else { throw .noZones(preset: presetPath) }
        guard !zones.isEmpty else { throw .noPlayableZone(preset: presetPath, samples: samples.filter { !$0.isLoaded }) }
        for sample in samples where !sample.isLoaded {
            warnings.append("Sample:\(sample.waveformID) \"\(sample.reference)\" did not load; its \(sample.zoneCount) zone(s) are silent")
        }

        let globals = SamplerGlobals(
            gainDecibels: preset.globals.gainDecibels, pan: preset.globals.pan,
            tuneCents: preset.globals.coarseTuneSemitones * 100 + preset.globals.fineTuneCents,
            voiceCount: max(1, preset.voiceCount))
        do {
            let program = try SamplerProgram(layers: layers, zones: zones, globals: globals)
            if levels == .atLoad, let warning = program.buildAllLevels().warning { warnings.append(warning) }
            return SamplerLoadResult(program: program, warnings: warnings, samples: samples)
        } catch {
            throw .invalidProgram(preset: presetPath, reason: error.description)
        }
    }

    /// One preset zone → a program zone, or nil (with a warning) when its sample did not load.
    private static func mapZone(
        _ zone: Presets.Zone, layerIndex: Int, library: SampleLibrary, place: String, warnings: inout [String]
    ) -> SamplerZone? {
        let waveform: SamplerWaveform
        var rootKey: Int
        var fileTuneCents = 0.0
        var fileLoop: SamplerLoop?
        if zone.usesBuiltInSine {
            waveform = library.builtInSine
            rootKey = zone.rootKey ?? builtInSineRootKey
        } else if let loaded = library.waveform(for: zone.waveform) {
            waveform = loaded.waveform
            rootKey = zone.rootKey ?? loaded.metadata.rootKey ?? defaultRootKey
            // The file's tuning belongs to the file's root key: use it only when that key is used.
            if zone.rootKey == nil { fileTuneCents = loaded.metadata.fineTuneCents ?? 0 }
            fileLoop = loaded.metadata.sustainLoop.map { SamplerLoop(startFrame: $0.startFrame, endFrame: $0.endFrame) }
        } else {
            return nil
        }
        rootKey = min(max(rootKey, 0), 127)
        var result = SamplerZone(waveform: waveform, layerIndex: layerIndex, rootKey: rootKey)
        result.minKey = zone.minKey
        result.maxKey = zone.maxKey
        result.minVelocity = zone.minVelocity
        result.maxVelocity = zone.maxVelocity
        result.tuneCents = Double(zone.coarseTuneSemitones) * 100 + zone.fineTuneCents + fileTuneCents
        result.pitchTracking = zone.pitchTracking
        result.gainDecibels = zone.gainDecibels
        if zone.usesBuiltInSine {
            // The table carries its own exact one-cycle loop; the preset's points (in AU Lab's
            // 48 kHz table) do not apply to it.
            result.loop = zone.loopEnabled ? waveform.naturalLoop : nil
        } else {
            result.loop = zone.loopEnabled
                ? loop(for: zone, fileLoop: fileLoop, frameCount: waveform.frameCount, place: place, warnings: &warnings)
                : nil
        }
        return result
    }

    /// The zone's loop: preset points where given, else the file's sustain loop, else the whole
    /// sample; clamped into the sample (with a warning), or dropped if nothing sensible remains.
    private static func loop(
        for zone: Presets.Zone, fileLoop: SamplerLoop?, frameCount: Int, place: String, warnings: inout [String]
    ) -> SamplerLoop? {
        let start = zone.loopStart ?? fileLoop?.startFrame ?? 0
        let end = zone.loopEnd ?? fileLoop?.endFrame ?? frameCount
        let loop = SamplerLoop(startFrame: max(0, start), endFrame: min(end, frameCount))
        if loop != SamplerLoop(startFrame: start, endFrame: end) {
            warnings.append("\(place): loop \(start)..<\(end) clamped to the sample's \(frameCount) frames")
        }
        if !loop.fits(frameCount: frameCount) {
            warnings.append("\(place): loop \(loop) is empty; the zone plays once")
            return nil
        }
        return loop
    }
}

import AudioFiles
import Presets
import Sampler

/// The sample files of one preset, each resolved and decoded once (several waveform IDs or many
/// zones may share a file), and shared with other presets through `files`. Control thread only.
struct SampleLibrary {
    typealias Loaded = SampleFiles.Decoded

    let files: SampleFiles
    /// Where other presets of the instrument found their samples.
    let resolutions: SampleResolutions?

    init(files: SampleFiles, resolutions: SampleResolutions? = nil) {
        self.files = files
        self.resolutions = resolutions
    }

    private var byWaveformID: [Int: Loaded] = [:]
    private var byPath: [String: Loaded] = [:]
    /// Memory per preset: samples (all channels) loaded so far, and the most one preset may hold.
    private var totalSamples = 0
    /// What the reader tolerated in the files loaded so far, one line each.
    private(set) var warnings: [String] = []
    static let maxTotalSamples = 1 << 28
    /// AU Lab's "Sine 440 Built-In", shared by every zone with `waveform −2`.
    let builtInSine = SamplerWaveform.sineCycle(frequencyHz: 440)

    func waveform(for id: Int) -> Loaded? { byWaveformID[id] }

    /// Resolves and loads every sample the enabled zones use; returns one report per sample.
    mutating func load(preset: AUPreset, resolver: SamplePathResolver) -> [SamplerSampleInfo] {
        var zoneCounts: [Int: Int] = [:]
        for layer in preset.layers {
            for zone in layer.zones where zone.enabled && !zone.usesBuiltInSine { zoneCounts[zone.waveform, default: 0] += 1 }
        }
        return zoneCounts.keys.sorted().map { id in
            let reference = preset.fileReferences[id] ?? ""
            let status = reference.isEmpty ? .notFound(tried: []) : load(id: id, reference: reference, resolver: resolver)
            return SamplerSampleInfo(waveformID: id, reference: reference, status: status, zoneCount: zoneCounts[id] ?? 0)
        }
    }

    private mutating func load(id: Int, reference: String, resolver: SamplePathResolver) -> SamplerSampleInfo.Status {
        switch resolutions?.resolve(reference, with: resolver) ?? resolver.resolve(reference) {
        case .notFound(let tried):
            return .notFound(tried: tried)
        case .found(let path, let how):
            do {
                let loaded = try loadOnce(path: path)
                byWaveformID[id] = loaded
                return .loaded(path: path, how: how, format: facts(loaded))
            } catch {
                return .unreadable(path: path, reason: error.description)
            }
        }
    }

    private mutating func loadOnce(path: String) throws(LoadFailure) -> Loaded {
        if let loaded = byPath[path] { return loaded }
        let loaded = try files.file(at: path) { () throws(LoadFailure) in try Self.decode(path: path) }
        totalSamples += loaded.waveform.frameCount * loaded.waveform.channelCount
        guard totalSamples <= Self.maxTotalSamples else {
            throw LoadFailure(
                description: "the preset's samples exceed \(Self.maxTotalSamples) samples (1 GB) in all; not loaded")
        }
        byPath[path] = loaded
        warnings += loaded.warnings
        return loaded
    }

    private static func decode(path: String) throws(LoadFailure) -> Loaded {
        let audio: DecodedAudio
        do {
            audio = try AudioFileReader.read(path: path)
        } catch {
            throw LoadFailure(description: error.reason)
        }
        guard audio.channels.count <= 2 else {
            throw LoadFailure(
                description: "\(audio.channels.count) channels; the sampler plays mono or stereo samples "
                    + "(mix it down, e.g. `sox in.wav -c 2 out.wav`)")
        }
        guard audio.frameCount * audio.channels.count <= maxTotalSamples else {
            throw LoadFailure(
                description: "the preset's samples exceed \(maxTotalSamples) samples (1 GB) in all; not loaded")
        }
        let waveform: SamplerWaveform
        do {
            waveform = try SamplerWaveform(channels: Array(audio.channels.prefix(2)), sampleRate: audio.sampleRate)
        } catch {
            throw LoadFailure(description: error.description)
        }
        var metadata = audio.metadata
        metadata.loops = metadata.loops.filter { $0.startFrame >= 0 && $0.endFrame <= audio.frameCount && $0.lengthFrames >= 2 }
        return Loaded(waveform: waveform, metadata: metadata, formatDescription: audio.formatDescription, warnings: audio.warnings)
    }

    private func facts(_ loaded: Loaded) -> SamplerSampleInfo.FileFacts {
        SamplerSampleInfo.FileFacts(
            formatDescription: loaded.formatDescription, sampleRate: loaded.waveform.sampleRate,
            frameCount: loaded.waveform.frameCount, channelCount: loaded.waveform.channelCount,
            rootKey: loaded.metadata.rootKey,
            loop: loaded.metadata.sustainLoop.map { SamplerLoop(startFrame: $0.startFrame, endFrame: $0.endFrame) })
    }

    typealias LoadFailure = SampleFiles.LoadFailure
}

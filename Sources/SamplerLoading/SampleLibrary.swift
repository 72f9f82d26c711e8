import AudioFiles
import Presets
import Sampler

/// The sample files of one preset, each resolved and decoded once (several waveform IDs or many
/// zones may share a file). Control thread only.
struct SampleLibrary {
    struct Loaded {
        var waveform: SamplerWaveform
        var metadata: SampleMetadata
        /// As stored, e.g. "WAV PCM 16-bit, 44100 Hz, mono".
        var formatDescription: String
    }

    private var byWaveformID: [Int: Loaded] = [:]
    private var byPath: [String: Loaded] = [:]
    /// Files other presets of the instrument decoded already.
    let shared: SharedSamples?

    init(shared: SharedSamples? = nil) { self.shared = shared }
    /// Memory per preset: samples (all channels) loaded so far, and the most one preset may hold.
    private var totalSamples = 0
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
        // The same reference from the same directory (with the instrument's search paths) resolves alike.
        let key = resolver.presetPath.split(separator: "/").dropLast().joined(separator: "/") + "\n" + reference
        let resolution = shared?.resolved[key] ?? resolver.resolve(reference)
        shared?.resolved[key] = resolution
        switch resolution {
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
        if let loaded = byPath[path] ?? shared?.decoded[path] {
            byPath[path] = loaded
            return loaded
        }
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
        totalSamples += audio.frameCount * audio.channels.count
        guard totalSamples <= Self.maxTotalSamples else {
            throw LoadFailure(
                description: "the preset's samples exceed \(Self.maxTotalSamples) samples (1 GB) in all; not loaded")
        }
        let waveform: SamplerWaveform
        do {
            waveform = try SamplerWaveform(channels: Array(audio.channels.prefix(2)), sampleRate: audio.sampleRate)
        } catch {
            throw LoadFailure(description: error.description)
        }
        var metadata = audio.metadata
        metadata.loops = metadata.loops.filter { $0.startFrame >= 0 && $0.endFrame <= audio.frameCount && $0.lengthFrames >= 2 }
        let loaded = Loaded(waveform: waveform, metadata: metadata, formatDescription: audio.formatDescription)
        byPath[path] = loaded
        shared?.decoded[path] = loaded
        return loaded
    }

    private func facts(_ loaded: Loaded) -> SamplerSampleInfo.FileFacts {
        SamplerSampleInfo.FileFacts(
            formatDescription: loaded.formatDescription, sampleRate: loaded.waveform.sampleRate,
            frameCount: loaded.waveform.frameCount, channelCount: loaded.waveform.channelCount,
            rootKey: loaded.metadata.rootKey,
            loop: loaded.metadata.sustainLoop.map { SamplerLoop(startFrame: $0.startFrame, endFrame: $0.endFrame) })
    }

    private struct LoadFailure: Error {
        var description: String
    }
}

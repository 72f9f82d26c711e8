import Sampler

/// What `SamplerProgramBuilder.build` produced: the program, what it had to tolerate, and one
/// entry per sample file the preset's zones use (for `audiograph preset check`).
public struct SamplerLoadResult: Sendable {
    public var program: SamplerProgram
    /// One line each: the preset decoder's warnings, then unsupported connections, missing or
    /// unreadable samples (their zones are left out), adjusted loops.
    public var warnings: [String]
    /// Sorted by waveform ID; the built-in sine has no entry.
    public var samples: [SamplerSampleInfo]
}

/// One sample file as the loader saw it.
public struct SamplerSampleInfo: Sendable, Equatable {
    /// The zone `waveform` ID (key "Sample:<id>" in `file-references`).
    public var waveformID: Int
    /// The stored `file-references` value.
    public var reference: String
    public var status: Status
    /// Enabled zones that use this sample.
    public var zoneCount: Int

    public enum Status: Sendable, Equatable {
        /// Loaded from `path`; `how` names the rule that found it.
        case loaded(path: String, how: String, format: FileFacts)
        /// No file at any candidate path.
        case notFound(tried: [String])
        /// Found but could not be decoded (the reader's message names the path and reason).
        case unreadable(path: String, reason: String)
    }

    /// Facts read from a loaded file (frames at the file's own rate).
    public struct FileFacts: Sendable, Equatable {
        /// e.g. "WAV PCM 16-bit, 44100 Hz, mono".
        public var formatDescription: String
        public var sampleRate: Double
        public var frameCount: Int
        public var channelCount: Int
        /// The file's own root key and sustain loop (end exclusive), if it has them.
        public var rootKey: Int?
        public var loop: SamplerLoop?
    }

    public var isLoaded: Bool {
        if case .loaded = status { return true }
        return false
    }
}

/// Why a preset could not become a playable program at all. Partial failures are warnings.
public enum SamplerLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The preset has no enabled zone.
    case noZones(preset: String)
    /// No zone can play: every sample is missing or unreadable. Lists each one with every path
    /// tried (or the read error).
    case noPlayableZone(preset: String, samples: [SamplerSampleInfo])
    /// The mapped program was inconsistent (a bug in the mapping more than in the preset).
    case invalidProgram(preset: String, reason: String)

    /// How many failed samples, and places tried for each, the message lists before "and N more".
    static let listedSamples = 10
    static let listedPaths = 8

    public var description: String {
        switch self {
        case .noZones(let preset):
            return "\(preset): the preset has no enabled zone, nothing to play"
        case .noPlayableZone(let preset, let samples):
            // Bounded: a preset may reference 100,000 samples; the first few tell what is wrong.
            var lines = ["\(preset): no zone can play; every sample failed to load:"]
            for sample in samples.prefix(Self.listedSamples) {
                switch sample.status {
                case .notFound(let tried) where sample.reference.isEmpty && tried.isEmpty:
                    lines.append("  Sample:\(sample.waveformID) has no file-references entry")
                case .notFound(let tried):
                    lines.append("  Sample:\(sample.waveformID) \"\(sample.reference.prefix(200))\" not found; tried:")
                    lines += tried.prefix(Self.listedPaths).map { "    \($0.prefix(300))" }
                    if tried.count > Self.listedPaths { lines.append("    and \(tried.count - Self.listedPaths) more places") }
                case .unreadable(let path, let reason):
                    lines.append("  Sample:\(sample.waveformID) \"\(sample.reference.prefix(200))\" at \(path.prefix(300)) unreadable: \(reason)")
                case .loaded:
                    break
                }
            }
            if samples.count > Self.listedSamples { lines.append("  and \(samples.count - Self.listedSamples) more samples") }
            return lines.joined(separator: "\n")
        case .invalidProgram(let preset, let reason):
            return "\(preset): \(reason)"
        }
    }
}

/// Where a sample file was found, or every place that was tried.
public enum SampleResolution: Sendable, Equatable {
    /// `path` is absolute and normalised; `how` says which rule found it (for reports).
    case found(path: String, how: String)
    /// Every candidate path, in the order tried.
    case notFound(tried: [String])
}

/// Finds the file a preset's `file-references` value points to on this machine.
///
/// Order (first existing regular file wins):
/// 1. `file:` URLs are turned into paths (scheme and `localhost` stripped, `//` collapsed,
///    percent-decoded; a raw `#` is noted and the path tried literally).
/// 2. An absolute path as stored.
/// 3. A relative path relative to the preset's directory.
/// 4. AUSampler's TN2283 fallback: the tail from the first of `/Sounds/`, `/Sampler Files/`,
///    `/Apple Loops/` (checked in that order; the whole tail kept, e.g. `Sounds/Tbone/1a#.caf`)
///    under the preset's directory and each of its parents up to `/` (the stand-in for the app
///    bundle), then under each search directory, then under the user directories
///    (`$XDG_DATA_HOME/audiograph`, `~/Documents`, `~/Downloads` by default).
///
/// AudioGraph extensions (not AUSampler behaviour), so that `--sample-path DIR` may name the
/// sample folder itself: a relative reference is also tried under each search directory, and
/// under a search directory the tail is also tried without its marker folder
/// (`Sounds/Keys/a.wav` → `DIR/Keys/a.wav`). There is no search by file name.
///
/// Control thread only (touches the file system through `fileExists`).
public struct SamplePathResolver: Sendable {
    /// TN2283's sub-paths, in the order AUSampler checks them.
    public static let fallbackMarkers = ["/Sounds/", "/Sampler Files/", "/Apple Loops/"]

    /// The preset file, absolute and normalised.
    public let presetPath: String
    public let searchDirectories: [String]
    public let userDirectories: [String]
    private let fileExists: @Sendable (String) -> Bool

    /// - Parameters:
    ///   - presetPath: the `.aupreset` file (relative paths are taken from the current directory).
    ///   - searchDirectories: `--sample-path DIR` values and the instrument file's list, in order.
    ///   - userDirectories: last-resort roots; `nil` = `SamplePathResolver.defaultUserDirectories()`.
    ///   - fileExists: the existence test (default: a regular file at that path).
    public init(
        presetPath: String, searchDirectories: [String] = [], userDirectories: [String]? = nil,
        fileExists: @escaping @Sendable (String) -> Bool = SamplePathResolver.isRegularFile
    ) {
        self.presetPath = PathUtilities.absolute(presetPath)
        self.searchDirectories = searchDirectories.map(PathUtilities.absolute)
        self.userDirectories = (userDirectories ?? Self.defaultUserDirectories()).map(PathUtilities.absolute)
        self.fileExists = fileExists
    }

    /// The default existence test: a regular file (or a symlink to one) at `path`.
    public static func isRegularFile(_ path: String) -> Bool { PathUtilities.isRegularFile(path) }

    /// `$XDG_DATA_HOME/audiograph` (default `~/.local/share/audiograph`), `~/Documents`,
    /// `~/Downloads`; without `$HOME` only an explicit `$XDG_DATA_HOME` is used.
    public static func defaultUserDirectories() -> [String] {
        let home = PathUtilities.environment("HOME")
        var directories: [String] = []
        if let data = PathUtilities.environment("XDG_DATA_HOME") ?? home.map({ $0 + "/.local/share" }) {
            directories.append(data + "/audiograph")
        }
        if let home { directories += [home + "/Documents", home + "/Downloads"] }
        return directories
    }

    /// Resolves one stored reference (a `file-references` value).
    public func resolve(_ reference: String) -> SampleResolution {
        var tried: [String] = []
        var seen: Set<String> = []
        var found: Candidate?
        visitCandidates(for: reference) { candidate in
            guard seen.insert(candidate.path).inserted else { return false }
            if fileExists(candidate.path) {
                found = candidate
                return true
            }
            // Say why a path that exists was passed over (a directory or FIFO named like the sample).
            tried.append(candidate.path + (PathUtilities.nonRegularKind(candidate.path).map { " (\($0), not a file)" } ?? ""))
            return false
        }
        if let found { return .found(path: found.path, how: found.how) }
        return .notFound(tried: tried)
    }

    /// Resolves the references the enabled zones of `preset` use, keyed by waveform ID. Zones
    /// whose waveform has no reference are absent (the decoder already warned about them).
    public func resolveUsedSamples(of preset: AUPreset) -> [Int: SampleResolution] {
        var result: [Int: SampleResolution] = [:]
        for waveform in preset.usedWaveforms {
            if let reference = preset.fileReferences[waveform] { result[waveform] = resolve(reference) }
        }
        return result
    }

    private struct Candidate {
        let path: String
        let how: String
    }

    /// Offers the paths to try, in order, to `stop` until it returns true: built one by one, as
    /// most references are found at the first (building them all cost ~0.4 M instructions each).
    private func visitCandidates(for reference: String, stop: (Candidate) -> Bool) {
        guard !reference.isEmpty else { return }
        let decoded = FileReference(reference)
        let prefix = decoded.form.map { "\($0): " } ?? ""
        let presetDirectory = PathUtilities.directory(of: presetPath)
        if decoded.path.hasPrefix("/") {
            if stop(Candidate(path: PathUtilities.normalized(decoded.path), how: prefix + "stored path")) { return }
        } else {
            if stop(
                Candidate(
                    path: PathUtilities.join(presetDirectory, decoded.path), how: prefix + "relative to the preset")) { return }
            for directory in searchDirectories {
                if stop(
                    Candidate(
                        path: PathUtilities.join(directory, decoded.path),
                        how: prefix + "relative to the search directory \(directory)")) { return }
            }
        }
        guard let tail = Self.fallbackTail(of: decoded.path) else { return }
        let fallback = { (root: String, relative: String, kind: String) in
            Candidate(
                path: PathUtilities.join(root, relative),
                how: prefix + "TN2283 fallback '\(relative)' under \(kind) \(root)")
        }
        for directory in PathUtilities.selfAndAncestors(presetDirectory) {
            if stop(fallback(directory, tail, "the preset's directory or a parent")) { return }
        }
        let insideMarkerFolder = String(tail.drop { $0 != "/" }.dropFirst())
        for directory in searchDirectories {
            if stop(fallback(directory, tail, "the search directory")) { return }
            if stop(fallback(directory, insideMarkerFolder, "the search directory")) { return }
        }
        for directory in userDirectories {
            if stop(fallback(directory, tail, "the user directory")) { return }
        }
    }

    /// The tail from the first TN2283 marker found (markers checked in order), without its
    /// leading slash; a relative path that starts with the marker's folder counts too.
    static func fallbackTail(of path: String) -> String? {
        let rooted = path.hasPrefix("/") ? path : "/" + path
        for marker in fallbackMarkers {
            var start = rooted.startIndex
            while start < rooted.endIndex {
                if rooted[start...].hasPrefix(marker) { return String(rooted[rooted.index(after: start)...]) }
                start = rooted.index(after: start)
            }
        }
        return nil
    }
}

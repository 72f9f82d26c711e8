import Foundation

/// Finds the bundled default instrument, so `audiograph play` and `render` work with no arguments
/// from the repository, from an installed copy, or from a build directory.
enum InstrumentLocator {
    static let defaultRelativePath = "Instruments/default.json"

    /// `$AUDIOGRAPH_HOME/…`, `./…`, then upwards from the executable (`.build/release/audiograph`).
    static func defaultInstrumentPath() -> String? {
        var roots: [String] = []
        if let home = ProcessInfo.processInfo.environment["AUDIOGRAPH_HOME"] { roots.append(home) }
        roots.append(FileManager.default.currentDirectoryPath)
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            roots.append(dir.path)
            dir = dir.deletingLastPathComponent()
        }
        roots.append("/usr/local/share/audiograph")
        roots.append("/usr/share/audiograph")
        for root in roots {
            let candidate = (root as NSString).appendingPathComponent(defaultRelativePath)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// `path` made absolute against `base` (the instrument file's directory).
    static func resolve(_ path: String, relativeTo base: String) -> String {
        path.hasPrefix("/") ? path : ((base as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }
}

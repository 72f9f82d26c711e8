import Foundation

/// Finds the default instrument, so `audiograph play` and `render` work with no arguments from a
/// source checkout, from an installed copy (`<prefix>/bin` beside `<prefix>/share/audiograph`),
/// and with a per-user instrument overriding the bundled one.
enum InstrumentLocator {
    static let defaultRelativePath = "Instruments/default.json"

    /// The first file that exists, in this order:
    /// 1. `$AUDIOGRAPH_HOME/Instruments/default.json` (a data tree named explicitly);
    /// 2. `${XDG_CONFIG_HOME:-~/.config}/audiograph/default.json` (the user's own instrument);
    /// 3. `./Instruments/default.json`, then upwards from the executable (a checkout's `.build/release`);
    /// 4. `<executable>/../share/audiograph/Instruments/default.json` (installed), then /usr/local, /usr.
    static func candidates(environment: [String: String], currentDirectory: String, executable: String) -> [String] {
        var paths: [String] = []
        if let home = environment["AUDIOGRAPH_HOME"], !home.isEmpty { paths.append(join(home, defaultRelativePath)) }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(join(config, "audiograph/default.json"))
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(join(home, ".config/audiograph/default.json"))
        }
        paths.append(join(currentDirectory, defaultRelativePath))
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let binDirectory = dir.path
        for _ in 0..<5 {
            paths.append(join(dir.path, defaultRelativePath))
            dir = dir.deletingLastPathComponent()
        }
        for share in [join(binDirectory, "../share/audiograph"), "/usr/local/share/audiograph", "/usr/share/audiograph"] {
            paths.append((join(share, defaultRelativePath) as NSString).standardizingPath)
        }
        return paths
    }

    static func defaultInstrumentPath() -> String? {
        candidates(environment: ProcessInfo.processInfo.environment,
                   currentDirectory: FileManager.default.currentDirectoryPath,
                   executable: executablePath())
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `path` made absolute against `base` (the instrument file's directory).
    static func resolve(_ path: String, relativeTo base: String) -> String {
        path.hasPrefix("/") ? path : (join(base, path) as NSString).standardizingPath
    }

    /// The running binary (not `argv[0]`, which is a bare name when found on `PATH`).
    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func join(_ base: String, _ path: String) -> String {
        (base as NSString).appendingPathComponent(path)
    }
}

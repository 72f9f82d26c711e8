import Foundation
import MemberwiseInit

/// Runs a program to its end and returns its exit status with stdout and stderr merged, as a
/// user sees them in a terminal.
public enum Subprocess {
    @PublicInit
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
    }

    /// What a run with `inheritingEnvironment: false` starts from: a plain `PATH` and `HOME`,
    /// nothing of the test runner's (for programs run as another user).
    public static let cleanEnvironment = ["PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/"]

    /// `environment` is laid over the runner's own environment, or over `cleanEnvironment`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], inheritingEnvironment: Bool = true,
        directory: String? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = (inheritingEnvironment ? ProcessInfo.processInfo.environment : cleanEnvironment).merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// What a tool found on `PATH` prints (`soxi`, `sox --i`, …), whatever its exit status.
    public static func output(_ arguments: String...) throws -> String {
        try run("/usr/bin/env", arguments).output
    }
}

import Foundation

/// A fresh directory under the system temp dir for one test's files, removed with its contents
/// when the last reference goes (or by `remove()`).
public final class TemporaryDirectory {
    public let path: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {
        path = NSTemporaryDirectory() + "audiograph-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The full path of `relative`, with its parent directories created.
    public func file(_ relative: String) -> String {
        let full = path + "/" + relative
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        return full
    }

    /// Creates `relative` (and its parents) holding `bytes`; returns the full path.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String) throws -> String {
        let full = file(relative)
        guard FileManager.default.createFile(atPath: full, contents: Data(bytes)) else { throw Failure(description: "cannot write \(full)") }
        return full
    }

    @discardableResult
    public func write(_ text: String, to relative: String) throws -> String {
        try write(Array(text.utf8), to: relative)
    }

    /// Creates `relative` as an empty file.
    @discardableResult
    public func touch(_ relative: String) throws -> String { try write([UInt8](), to: relative) }

    /// Creates the directory `full` (an absolute path) and its parents.
    public func makeDirectories(_ full: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "mkdir \(full): \(error)")
        }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

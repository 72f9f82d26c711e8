import FileAccess
import Foundation

/// `play`'s log: one line per event on stderr ("audiograph: …"), which systemd's journal keeps.
/// Text from outside (names, keys, paths) has its control characters escaped.
enum LiveLog {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data("audiograph: \(PrintableText.escaped(text, keepingNewlines: true))\n".utf8))
    }

    /// A warning line on stderr ("warning: …").
    static func warn(_ text: String) {
        FileHandle.standardError.write(Data("warning: \(PrintableText.escaped(text, keepingNewlines: true))\n".utf8))
    }
}

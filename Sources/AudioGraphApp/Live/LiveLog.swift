import Foundation

/// `play`'s log: one line per event on stderr ("audiograph: …"), which systemd's journal keeps.
enum LiveLog {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data("audiograph: \(text)\n".utf8))
    }
}

import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
final class ProgressBar {
    private let enabled: Bool
    private var lastDrawn = -1

    init(enabled: Bool) {
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }

    func finish() {
        guard enabled, lastDrawn >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}

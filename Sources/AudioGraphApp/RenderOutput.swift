import AudioFiles
import FileAccess
import Glibc

/// Where `render` writes: a file, in the format its extension names, through `OutputFile` (so a
/// render that fails or is interrupted leaves a good file at the path as it was), or standard
/// output for `-` (WAV, since nothing names another format).
final class RenderOutput {
    static let standardOutputName = "-"

    let format: OutputFormat
    let writer: AudioFileSink
    private let file: OutputFile?

    /// What can be checked before anything is loaded or rendered: the format, and that the path
    /// is not a FIFO, device, directory or an input already opened.
    @discardableResult
    static func check(_ path: String) throws(AudioFileError) -> OutputFormat {
        guard path != standardOutputName else { return OutputFormat(.wav) }
        _ = try OutputFile.checkTarget(path)
        return try OutputFormat.forPath(path)
    }

    /// Opens the output once every input is open (`OutputFile` refuses any of them as a target).
    init(path: String, sampleRate: Int) throws(AudioFileError) {
        format = try Self.check(path)
        guard path != Self.standardOutputName else {
            file = nil
            writer = try format.writer(descriptor: STDOUT_FILENO, path: "standard output", sampleRate: sampleRate, channels: 2)
            return
        }
        let file = try OutputFile(path)
        do {
            writer = try format.writer(descriptor: file.descriptor, path: path, sampleRate: sampleRate, channels: 2)
        } catch {
            file.discard()
            throw error
        }
        self.file = file
    }

    /// Starts the disk writing what the file has so far, without waiting (`OutputFile.startWriteback`;
    /// nothing for standard output).
    func startWriteback() { file?.startWriteback() }

    /// Finishes the file and puts it in place; on any failure nothing is left behind.
    func commit() throws(AudioFileError) {
        do {
            try writer.finish()
        } catch {
            file?.discard()
            throw error
        }
        try file?.commit()
    }

    /// Drops what was written; the path keeps what it had.
    func discard() {
        writer.close()
        file?.discard()
    }
}

/// A file being written block by block (`render`'s output, whatever its format).
public protocol AudioFileSink: AnyObject {
    /// Appends `frames` frames. `right` is ignored for mono; for stereo a nil `right` repeats `left`.
    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>?, frames: Int) throws(AudioFileError)
    /// Completes the file (final header, encoder flush); an error means it is not whole.
    func finish() throws(AudioFileError)
    /// Stops without completing (after an error). Safe to call twice.
    func close()
}

extension SoundFileWriter: AudioFileSink {}

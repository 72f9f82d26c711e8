#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A SoundFont's sample data, read on need by range with `pread` from the file the font was parsed
/// from (a duplicate of its descriptor: the same file even if the path is replaced since), through
/// no mapping: under `play`'s `mlockall(MCL_FUTURE)` a mapping made after locking is resident and
/// locked whole (148 MB for FluidR3_GM), and a mapped file cut short raises SIGBUS. A file changed
/// in place since it was parsed (its size or modification time differ) or cut short is an error
/// naming the file and the sample, never a crash. Any thread but the render thread; reads are
/// independent (`pread` keeps no position).
public final class SoundFontSampleData: Sendable {
    /// The font's path, for messages.
    public let path: String
    /// Sample headers by shdr index, as the font has them.
    public let samples: [SoundFontSample]
    private let descriptor: Int32
    private let sampleBytes: Range<Int>
    private let sample24Bytes: Range<Int>?
    private let size: Int
    private let modified: timespec

    fileprivate init(font: SoundFontFile, descriptor: Int32, status: stat) {
        path = font.path
        samples = font.samples
        self.descriptor = descriptor
        sampleBytes = font.sampleBytes
        sample24Bytes = font.sample24Bytes
        size = Int(status.st_size)
        modified = status.st_mtim
    }

    deinit { close(descriptor) }

    /// Frames `frames` (from the sample's first, within its `frameCount`) of 16-bit PCM sample
    /// `index` as its points.
    public func pcm16(sample index: Int, frames: Range<Int>, into destination: UnsafeMutablePointer<Int16>) throws(SoundFontError) {
        let sample = try playable(index, frames)
        let offset = sampleBytes.lowerBound + 2 * (sample.start + frames.lowerBound)
        try read(UnsafeMutableRawPointer(destination), bytes: 2 * frames.count, at: offset, sample: index)
        for i in 0..<frames.count { destination[i] = Int16(littleEndian: destination[i]) }  // the file is little-endian
    }

    /// Frames `frames` of sample `index` as Float, as `SoundFontFile.sampleFrames(index)[frames]`
    /// gives them: 16-bit or 24-bit PCM read by range, a Vorbis stream read whole and decoded
    /// (frames it does not decode to are zeros).
    public func floats(sample index: Int, frames: Range<Int>, into destination: UnsafeMutablePointer<Float>) throws(SoundFontError) {
        let sample = try playable(index, frames)
        guard !sample.isCompressed else {
            let offset = sampleBytes.lowerBound + sample.start
            let stream = UnsafeMutableRawBufferPointer.allocate(byteCount: max(sample.end - sample.start, 1), alignment: 16)
            defer { stream.deallocate() }
            try read(stream.baseAddress!, bytes: sample.end - sample.start, at: offset, sample: index)
            let decoded = try SoundFontFile.decodeVorbis(
                UnsafeRawBufferPointer(rebasing: stream[..<(sample.end - sample.start)]), sample: index, sample, at: offset, path: path)
            for (i, frame) in frames.enumerated() { destination[i] = frame < decoded.count ? decoded[frame] : 0 }
            return
        }
        let pool = sample.start + frames.lowerBound
        let points = UnsafeMutableRawPointer.allocate(byteCount: max(3 * frames.count, 1), alignment: 16)
        defer { points.deallocate() }
        try read(points, bytes: 2 * frames.count, at: sampleBytes.lowerBound + 2 * pool, sample: index)
        let low = sample24Bytes.map { _ in points + 2 * frames.count }
        if let low, let sm24 = sample24Bytes { try read(low, bytes: frames.count, at: sm24.lowerBound + pool, sample: index) }
        SoundFontFile.convert(points: points, lowBytes: low, count: frames.count, into: destination)
    }

    /// Sample `index`, checked to play and to hold `frames`.
    private func playable(_ index: Int, _ frames: Range<Int>) throws(SoundFontError) -> SoundFontSample {
        guard samples.indices.contains(index) else {
            throw SoundFontError(path: path, chunk: "pdta/shdr", reason: "no sample \(index) (the font has \(samples.count))")
        }
        let sample = samples[index]
        if case .dropped(let reason) = sample.playability {
            throw SoundFontError(path: path, chunk: "pdta/shdr", reason: "sample \(index) '\(sample.name)' cannot play: \(reason)")
        }
        guard frames.lowerBound >= 0, frames.upperBound <= sample.frameCount else {
            throw SoundFontError(path: path, chunk: "pdta/shdr", reason: "sample \(index) '\(sample.name)': frames \(frames) outside its \(sample.frameCount)")
        }
        return sample
    }

    /// `bytes` bytes of the file from `offset`, all of them, after checking the file is still as parsed.
    private func read(_ destination: UnsafeMutableRawPointer, bytes: Int, at offset: Int, sample index: Int) throws(SoundFontError) {
        let name = samples[index].name
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(offset, index, name, "cannot stat the file: \(String(cString: strerror(errno)))") }
        guard Int(status.st_size) == size, status.st_mtim.tv_sec == modified.tv_sec, status.st_mtim.tv_nsec == modified.tv_nsec else {
            throw failure(offset, index, name, "the file changed since it was loaded (\(size) bytes then, \(status.st_size) now)")
        }
        var done = 0
        while done < bytes {
            let count = pread(descriptor, destination + done, bytes - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(offset, index, name, "read error: \(String(cString: strerror(errno)))")
            }
            guard count > 0 else { throw failure(offset, index, name, "the file ends at byte \(offset + done), before the sample's data") }
            done += count
        }
    }

    private func failure(_ offset: Int, _ index: Int, _ name: String, _ reason: String) -> SoundFontError {
        SoundFontError(path: path, chunk: "sdta/smpl", byteOffset: offset, reason: "sample \(index) '\(name)': \(reason)")
    }
}

extension SoundFontFile {
    /// The font's sample data, read by range after the font and its mapping are gone (`play`
    /// reads samples on need). Throws for a font parsed from bytes in memory (no file).
    public func sampleData() throws(SoundFontError) -> SoundFontSampleData {
        guard storage.descriptor >= 0 else { throw SoundFontError(path: path, reason: "not read from a file: its samples cannot be read on need") }
        let descriptor = fcntl(storage.descriptor, F_DUPFD_CLOEXEC, 0)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw SoundFontError(path: path, reason: "cannot keep the file open to read its samples on need: \(reason)")
        }
        return SoundFontSampleData(font: self, descriptor: descriptor, status: status)
    }
}

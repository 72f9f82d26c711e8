import CSndFile
import CSoxr
import FileAccess

/// An audio file read in chunks (libsndfile) and converted to another rate in chunks (libsoxr's
/// stream resampler): for inputs played through once (`render --input`, `pitch`), whose length
/// the memory must not follow. Holds one chunk of the file and the resampler's state, a few MB
/// whatever the file's length. Control thread.
///
/// Checks as `AudioFileReader.read` does (header, truncation at open; non-finite samples and
/// missing frames as they come, naming the frame), so a bad file fails with the same lines, but
/// possibly after some of it was used.
public final class AudioFileStream {
    public let path: String
    public let channelCount: Int
    /// The rate frames come out at.
    public let sampleRate: Double
    /// Frames the whole file gives at `sampleRate`: as many as `AudioFileReader.read(path:convertingTo:)`'s.
    public let frameCount: Int
    /// As stored, e.g. "WAV PCM 16-bit, 768000 Hz, 8 channels".
    public let formatDescription: String
    /// Harmless untidiness found at open, one line each (an audio chunk a few bytes longer than
    /// the file, as `AudioFileReader` reads it).
    public private(set) var warnings: [String] = []

    private let file: OpaquePointer
    private let declaredFrames: Int
    private let isPCM16: Bool
    private var fileFramesRead = 0
    /// One chunk of the file, interleaved (and its 16-bit form).
    private let chunk: UnsafeMutablePointer<Float>
    private let shorts: UnsafeMutablePointer<Int16>
    private var chunkStart = 0
    private var chunkEnd = 0
    private var resampler: soxr_t?
    private var delivered = 0
    private var inputEnded = false

    /// Opens `path`, to be read at `sampleRate` (nil: the file's own). Throws as
    /// `AudioFileReader.read(path:)` does for a bad header or a truncated file.
    public init(path: String, convertingTo rate: Double? = nil, quality: ConversionQuality = .veryHigh) throws(AudioFileError) {
        let opened = try RegularFile.open(path, maxBytes: Int.max, what: "audio file")
        var info = SF_INFO()
        // libsndfile closes the descriptor (close_desc = 1), also when sf_open_fd fails.
        guard let file = sf_open_fd(opened.descriptor, Int32(SFM_READ), &info, 1) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        let channels = Int(info.channels), frames = Int(info.frames), fileRate = Int(info.samplerate)
        guard (1...AudioFileReader.maxChannels).contains(channels), AudioFileReader.sampleRates.contains(fileRate), frames >= 0 else {
            sf_close(file)
            throw AudioFileError(path: path, reason: "invalid header: \(channels) channels (1…\(AudioFileReader.maxChannels) allowed), "
                + "\(fileRate) Hz (\(AudioFileReader.sampleRates.lowerBound)…\(AudioFileReader.sampleRates.upperBound) allowed)")
        }
        if let (declared, present) = AudioFileReader.truncation(of: file) {
            guard declared - present < AudioFileReader.maxShortfallBytes else {
                sf_close(file)
                throw AudioFileError(path: path, reason: "truncated: the audio chunk declares \(declared) bytes but the file holds \(present); "
                    + "re-export or repair the file")
            }
            warnings.append(
                "\(path): byte offset \(opened.size): the file ends inside its audio chunk, which declares \(declared) bytes, "
                    + "\(declared - present) more than the file holds; read its whole frames")
        }
        self.path = path
        self.file = file
        channelCount = channels
        declaredFrames = frames
        isPCM16 = info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        formatDescription = FormatDescription.describe(format: info.format, sampleRate: fileRate, channels: channels)
        chunk = .allocate(capacity: AudioFileReader.readBlockFrames * channels)
        shorts = .allocate(capacity: AudioFileReader.readBlockFrames * channels)
        let target = rate ?? Double(fileRate)
        sampleRate = target
        frameCount = target == Double(fileRate) ? frames : Int((Double(frames) * target / Double(fileRate)).rounded())
        guard target != Double(fileRate) else { return }
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        // The same recipe as `SampleRateConverter`: no roll-off, so the pass band is flat to its edge.
        var spec = soxr_quality_spec(quality.recipe, UInt(SOXR_ROLLOFF_NONE))
        var runtime = soxr_runtime_spec(1)
        resampler = soxr_create(Double(fileRate), target, UInt32(channels), &error, &io, &spec, &runtime)
        if let error {
            throw AudioFileError(path: path, reason: "libsoxr: \(String(cString: error))")
        }
    }

    deinit {
        if let resampler { soxr_delete(resampler) }
        sf_close(file)
        chunk.deallocate()
        shorts.deallocate()
    }

    /// Writes the next frames, up to `frames`, interleaved into `output` (room for `frames` ×
    /// `channelCount` floats); returns how many, 0 once all `frameCount` came out.
    public func read(into output: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFileError) -> Int {
        let wanted = min(frames, frameCount - delivered)
        var written = 0
        while written < wanted {
            if chunkStart == chunkEnd && !inputEnded { try readChunk() }
            let destination = output + written * channelCount
            guard let resampler else {
                guard chunkStart < chunkEnd else { break }
                let run = min(wanted - written, chunkEnd - chunkStart)
                destination.update(from: chunk + chunkStart * channelCount, count: run * channelCount)
                chunkStart += run
                written += run
                continue
            }
            var used = 0, produced = 0
            let input: UnsafeRawPointer? = inputEnded ? nil : UnsafeRawPointer(chunk + chunkStart * channelCount)
            let error = soxr_process(resampler, input, chunkEnd - chunkStart, &used, UnsafeMutableRawPointer(destination), wanted - written, &produced)
            if let error { throw AudioFileError(path: path, reason: "libsoxr: \(String(cString: error))") }
            chunkStart += used
            written += produced
            if inputEnded && produced == 0 { break }  // flushed: the rest is silence
        }
        if written < wanted {
            // The resampler gave fewer frames than the length promises (its last partial one): zeros, as `SampleRateConverter` pads.
            (output + written * channelCount).update(repeating: 0, count: (wanted - written) * channelCount)
            written = wanted
        }
        delivered += written
        return written
    }

    /// Decodes the next chunk of the file; at its end, checks that every declared frame came.
    private func readChunk() throws(AudioFileError) {
        let wanted = sf_count_t(min(AudioFileReader.readBlockFrames, declaredFrames - fileFramesRead))
        let got = wanted > 0 ? Int(isPCM16 ? sf_readf_short(file, shorts, wanted) : sf_readf_float(file, chunk, wanted)) : 0
        if sf_error(file) != 0 {
            throw AudioFileError(path: path, reason: "decoding failed: \(String(cString: sf_strerror(file)))")
        }
        if isPCM16 {
            let scale: Float = 1.0 / 32768
            for i in 0..<(got * channelCount) { chunk[i] = Float(shorts[i]) * scale }
        }
        for i in 0..<(got * channelCount) where !chunk[i].isFinite {
            throw AudioFileError(
                path: path, reason: "holds a non-finite sample (NaN or infinity) at frame \(fileFramesRead + i / channelCount); repair the file")
        }
        chunkStart = 0
        chunkEnd = got
        fileFramesRead += got
        if got <= 0 {
            guard fileFramesRead == declaredFrames else {
                throw AudioFileError(
                    path: path, reason: "truncated: the header says \(declaredFrames) frames but only \(fileFramesRead) could be decoded; "
                        + "re-export or repair the file")
            }
            inputEnded = true
        }
    }
}

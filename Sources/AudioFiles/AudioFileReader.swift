import CSndFile

/// Loads whole sample files into memory. Control thread only (file I/O, allocation).
public enum AudioFileReader {
    /// Refuse files whose decoded size would exceed this many samples (≈ 2 GB of Float), rather than
    /// trying to allocate it: a corrupt header can claim any length.
    static let maxTotalSamples = 1 << 29

    /// Control thread. Reads any format libsndfile supports (WAV, AIFF/AIFC, CAF, FLAC, Ogg…), with the
    /// root key, tuning, ranges and loops from its metadata chunks. Throws when the file is missing,
    /// unreadable or corrupt; the error names the path and libsndfile's reason.
    public static func read(path: String) throws(AudioFileError) -> DecodedAudio {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channelCount = Int(info.channels)
        let declaredFrames = Int(info.frames)
        guard channelCount > 0, info.samplerate > 0, declaredFrames >= 0 else {
            throw AudioFileError(path: path, reason: "invalid header: \(channelCount) channels, \(info.samplerate) Hz")
        }
        guard declaredFrames <= maxTotalSamples / channelCount else {
            throw AudioFileError(path: path, reason: "file claims \(declaredFrames) frames, more than this reader accepts")
        }
        let (interleaved, framesRead) = readInterleaved(file, format: info.format, channels: channelCount, frames: declaredFrames)
        if sf_error(file) != 0 {
            throw AudioFileError(path: path, reason: "decoding failed: \(String(cString: sf_strerror(file)))")
        }
        guard framesRead > 0 || declaredFrames == 0 else {
            throw AudioFileError(path: path, reason: "no audio frames could be decoded")
        }
        let channels = deinterleave(interleaved, channels: channelCount, frames: framesRead)
        let major = Int(FormatDescription.majorFormat(info.format))
        var metadata = SndFileInstrument.metadata(of: file, carriesRanges: major == SF_FORMAT_AIFF) ?? SampleMetadata()
        if major == SF_FORMAT_CAF {
            // libsndfile does not expose CAF `inst`/`regn`/`mark`; read them ourselves.
            metadata = try CAFMetadataReader.read(path: path)
        }
        metadata.loops = metadata.loops.filter { $0.endFrame <= framesRead }
        return DecodedAudio(
            sampleRate: Double(info.samplerate), channels: channels, frameCount: framesRead, metadata: metadata,
            formatDescription: FormatDescription.describe(
                format: info.format, sampleRate: Int(info.samplerate), channels: channelCount))
    }

    /// Control thread. Like `read(path:)`, then converted to `sampleRate` with libsoxr (very-high
    /// quality unless `quality` says otherwise) when the file's rate differs; loop points are scaled
    /// and rounded. `wholeFileLoops`: the file is played as one endless loop (a loop player's), so
    /// it is converted as a periodic signal and its wrap stays seamless. `formatDescription` still
    /// describes the file as stored.
    public static func read(
        path: String, convertingTo sampleRate: Double, quality: ConversionQuality = .veryHigh, wholeFileLoops: Bool = false
    ) throws(AudioFileError) -> DecodedAudio {
        var audio = try read(path: path)
        guard sampleRate != audio.sampleRate else { return audio }
        let converted: [[Float]]
        do {
            converted = try SampleRateConverter.convert(
                audio.channels, from: audio.sampleRate, to: sampleRate, quality: quality, periodic: wholeFileLoops)
        } catch {
            throw AudioFileError(path: path, reason: error.reason)
        }
        let ratio = sampleRate / audio.sampleRate
        let newFrameCount = converted.first?.count ?? 0
        audio.metadata.loops = audio.metadata.loops.map { loop in
            SampleLoop(
                startFrame: Int((Double(loop.startFrame) * ratio).rounded()),
                endFrame: min(Int((Double(loop.endFrame) * ratio).rounded()), newFrameCount))
        }
        audio.channels = converted
        audio.frameCount = newFrameCount
        audio.sampleRate = sampleRate
        return audio
    }

    /// All frames as interleaved floats, and how many frames were read. No zero-filling, and 16-bit
    /// PCM (the usual sample format) is read as integers straight from the file into memory and
    /// converted here in one vectorised pass: libsndfile's own float conversion costs ~9
    /// instructions a sample, this ~1. Same scale as libsndfile's (1/32768).
    private static func readInterleaved(_ file: OpaquePointer, format: Int32, channels: Int, frames: Int) -> ([Float], Int) {
        var framesRead = 0
        let samples = [Float](unsafeUninitializedCapacity: frames * channels) { buffer, count in
            if format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16) {
                let shorts = UnsafeMutablePointer<Int16>.allocate(capacity: max(1, frames * channels))
                defer { shorts.deallocate() }
                framesRead = max(0, Int(sf_readf_short(file, shorts, sf_count_t(frames))))
                let scale: Float = 1.0 / 32768
                for i in 0..<(framesRead * channels) { buffer[i] = Float(shorts[i]) * scale }
            } else {
                framesRead = max(0, Int(sf_readf_float(file, buffer.baseAddress, sf_count_t(frames))))
            }
            count = framesRead * channels
        }
        return (samples, framesRead)
    }

    static func deinterleave(_ interleaved: [Float], channels: Int, frames: Int) -> [[Float]] {
        if channels == 1 { return [interleaved.count == frames ? interleaved : Array(interleaved.prefix(frames))] }
        return (0..<channels).map { channel in
            [Float](unsafeUninitializedCapacity: frames) { buffer, count in
                for frame in 0..<frames { buffer[frame] = interleaved[frame * channels + channel] }
                count = frames
            }
        }
    }
}

import CSndFile
import FileAccess

/// Loads whole sample files into memory. Control thread only (file I/O, allocation).
public enum AudioFileReader {
    /// Refuse files whose decoded size would exceed this many samples (1 GB of Float), rather than
    /// trying to allocate it: a corrupt header can claim any length.
    public static let maxTotalSamples = 1 << 28
    /// Sample rates a header may claim; anything else is corrupt (and would size analysis windows absurdly).
    public static let sampleRates = 1000...768_000
    /// Channels a file may have (7.1 is 8); more is a corrupt header.
    public static let maxChannels = 8
    /// Compressed files (FLAC, Ogg) can be tiny yet claim any length, so audio is decoded in blocks of
    /// this many frames and memory grows only with what really decodes.
    static let readBlockFrames = 1 << 16
    /// Sample files are decoded whole; larger than this is refused before decoding.
    public static let maxFileBytes = 2 << 30

    /// Control thread. Reads any format libsndfile supports (WAV, AIFF/AIFC, CAF, FLAC, Ogg…), with the
    /// root key, tuning, ranges and loops from its metadata chunks. Throws when the file is missing,
    /// not a regular file, unreadable, corrupt, truncated or beyond the limits above; the error names
    /// the path and the reason.
    public static func read(path: String) throws(AudioFileError) -> DecodedAudio {
        let opened = try RegularFile.open(path, maxBytes: maxFileBytes, what: "audio file")
        var info = SF_INFO()
        // libsndfile closes the descriptor (close_desc = 1), also when sf_open_fd fails.
        guard let file = sf_open_fd(opened.descriptor, Int32(SFM_READ), &info, 1) else {
            throw AudioFileError(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channelCount = Int(info.channels)
        let declaredFrames = Int(info.frames)
        guard (1...maxChannels).contains(channelCount), sampleRates.contains(Int(info.samplerate)), declaredFrames >= 0 else {
            throw AudioFileError(
                path: path,
                reason: "invalid header: \(channelCount) channels (1…\(maxChannels) allowed), \(info.samplerate) Hz "
                    + "(\(sampleRates.lowerBound)…\(sampleRates.upperBound) allowed)")
        }
        guard declaredFrames <= maxTotalSamples / channelCount else {
            throw AudioFileError(
                path: path,
                reason: "file claims \(declaredFrames) frames × \(channelCount) channels, more than the "
                    + "\(maxTotalSamples) samples this reader accepts")
        }
        var interleaved: [Float] = []
        var block = [Float](repeating: 0, count: readBlockFrames * channelCount)
        var framesRead = 0
        while framesRead < declaredFrames {
            let wanted = min(readBlockFrames, declaredFrames - framesRead)
            let got = block.withUnsafeMutableBufferPointer { Int(sf_readf_float(file, $0.baseAddress, sf_count_t(wanted))) }
            if got <= 0 { break }
            interleaved += block.prefix(got * channelCount)
            framesRead += got
        }
        if sf_error(file) != 0 {
            throw AudioFileError(path: path, reason: "decoding failed: \(String(cString: sf_strerror(file)))")
        }
        guard framesRead > 0 || declaredFrames == 0 else {
            throw AudioFileError(path: path, reason: "no audio frames could be decoded")
        }
        if let bad = interleaved.firstIndex(where: { !$0.isFinite }) {
            // Float files can store NaN/inf; played, they would poison every filter downstream.
            throw AudioFileError(
                path: path, reason: "holds a non-finite sample (NaN or infinity) at frame \(bad / channelCount); repair the file")
        }
        if let (declared, present) = truncation(of: file) {
            throw AudioFileError(
                path: path,
                reason: "truncated: the audio chunk declares \(declared) bytes but the file holds \(present) "
                    + "(\(framesRead) frames decodable); re-export or repair the file")
        }
        guard framesRead == declaredFrames else {
            throw AudioFileError(
                path: path,
                reason: "truncated: the header says \(declaredFrames) frames but only \(framesRead) could be decoded; "
                    + "re-export or repair the file")
        }
        let channels = deinterleave(interleaved, channels: channelCount, frames: framesRead)
        let major = Int(FormatDescription.majorFormat(info.format))
        var metadata: SampleMetadata
        do {
            metadata = try SndFileInstrument.metadata(of: file, carriesRanges: major == SF_FORMAT_AIFF) ?? SampleMetadata()
        } catch {
            throw AudioFileError(path: path, reason: error.reason)
        }
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

    /// Control thread. Like `read(path:)`, then converted to `sampleRate` with libsamplerate
    /// (SRC_SINC_BEST_QUALITY unless `quality` says otherwise) when the file's rate differs; loop
    /// points are scaled and rounded. `formatDescription` still describes the file as stored.
    public static func read(
        path: String, convertingTo sampleRate: Double, quality: ConversionQuality = .best
    ) throws(AudioFileError) -> DecodedAudio {
        var audio = try read(path: path)
        guard sampleRate != audio.sampleRate else { return audio }
        let converted: [[Float]]
        do {
            converted = try SampleRateConverter.convert(audio.channels, from: audio.sampleRate, to: sampleRate, quality: quality)
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

    /// libsndfile quietly shortens a WAV `data` or AIFF `SSND` chunk that runs past the end of the
    /// file, noting it only in its log ("data : 88200 (should be 39956)"): the declared and present sizes.
    static func truncation(of file: OpaquePointer) -> (declared: Int, present: Int)? {
        var log = [CChar](repeating: 0, count: 4096)
        sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("data") || line.hasPrefix("SSND") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if line.contains("(should be"), numbers.count >= 2, numbers[numbers.count - 1] < numbers[numbers.count - 2] {
                return (numbers[numbers.count - 2], numbers[numbers.count - 1])
            }
        }
        return nil
    }

    static func deinterleave(_ interleaved: [Float], channels: Int, frames: Int) -> [[Float]] {
        if channels == 1 { return [Array(interleaved.prefix(frames))] }
        return (0..<channels).map { channel in
            [Float](unsafeUninitializedCapacity: frames) { buffer, count in
                for frame in 0..<frames { buffer[frame] = interleaved[frame * channels + channel] }
                count = frames
            }
        }
    }
}

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
    /// An audio chunk this many bytes (or more) longer than the file is truncation (an error);
    /// fewer is an untidy length field, read with a warning (7 frames of 16-bit mono at most).
    public static let maxShortfallBytes = 16

    /// Control thread. Reads any format libsndfile supports (WAV, AIFF/AIFC, CAF, FLAC, Ogg…), with the
    /// root key, tuning, ranges and loops from its metadata chunks. Throws when the file is missing,
    /// not a regular file, unreadable, corrupt, truncated or beyond the limits above; the error names
    /// the path and the reason. An audio chunk that declares a few bytes more than the file holds
    /// (under `maxShortfallBytes`) is read with a warning (`DecodedAudio.warnings`).
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
        let (interleaved, framesRead) = readInterleaved(file, format: info.format, channels: channelCount, frames: declaredFrames)
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
        var warnings: [String] = []
        if let (declared, present) = truncation(of: file) {
            // A few bytes short: a length field that counted a pad byte, a header or an alignment
            // word (sox reads such files with a warning); at most 0.2 ms of audio. More is a
            // cut-off file, which must not play silently shorter.
            guard declared - present < maxShortfallBytes else {
                throw AudioFileError(
                    path: path,
                    reason: "truncated: the audio chunk declares \(declared) bytes but the file holds \(present) "
                        + "(\(framesRead) frames decodable); re-export or repair the file")
            }
            warnings.append(
                "\(path): byte offset \(opened.size): the file ends inside its audio chunk, which declares \(declared) bytes, "
                    + "\(declared - present) more than the file holds; read its \(framesRead) whole frames")
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
        var audio = DecodedAudio(
            sampleRate: Double(info.samplerate), channels: channels, frameCount: framesRead, metadata: metadata,
            formatDescription: FormatDescription.describe(
                format: info.format, sampleRate: Int(info.samplerate), channels: channelCount))
        audio.warnings = warnings
        return audio
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

    /// All frames as interleaved floats, and how many frames were read. Decoded in blocks of
    /// `readBlockFrames`, so memory follows what really decodes, not what the header claims. 16-bit
    /// PCM (the usual sample format) is read as integers and converted here in one vectorised pass:
    /// libsndfile's own float conversion costs ~9 instructions a sample, this ~1. Same scale as
    /// libsndfile's (1/32768).
    private static func readInterleaved(_ file: OpaquePointer, format: Int32, channels: Int, frames: Int) -> ([Float], Int) {
        let isPCM16 = format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16)
        let blockSamples = readBlockFrames * channels
        let shorts = UnsafeMutablePointer<Int16>.allocate(capacity: blockSamples)
        let floats = UnsafeMutablePointer<Float>.allocate(capacity: blockSamples)
        defer {
            shorts.deallocate()
            floats.deallocate()
        }
        var samples: [Float] = []
        samples.reserveCapacity(min(frames, 1 << 20) * channels)  // honest files grow without copying much; a lying header costs ≤ 4 MB a channel
        var framesRead = 0
        while framesRead < frames {
            let wanted = sf_count_t(min(readBlockFrames, frames - framesRead))
            let got = Int(isPCM16 ? sf_readf_short(file, shorts, wanted) : sf_readf_float(file, floats, wanted))
            if got <= 0 { break }
            if isPCM16 {
                let scale: Float = 1.0 / 32768
                for i in 0..<(got * channels) { floats[i] = Float(shorts[i]) * scale }
            }
            samples.append(contentsOf: UnsafeBufferPointer(start: floats, count: got * channels))
            framesRead += got
        }
        return (samples, framesRead)
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
        if channels == 1 { return [interleaved.count == frames ? interleaved : Array(interleaved.prefix(frames))] }
        return (0..<channels).map { channel in
            [Float](unsafeUninitializedCapacity: frames) { buffer, count in
                for frame in 0..<frames { buffer[frame] = interleaved[frame * channels + channel] }
                count = frames
            }
        }
    }
}

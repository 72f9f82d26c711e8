import FileAccess
import Glibc

/// Reads the sampler metadata of a CAF file: `inst` (base note, key and velocity range) and the
/// sustain/release loop markers of `regn` and `mark` (`slbg`/`slen`, `rlbg`/`rlen`).
///
/// CAF is big-endian, but Apple's own instrument files store `inst` little-endian, so each chunk is
/// parsed big-endian first and, if implausible (a base note must lie in 0…127), little-endian.
enum CAFMetadataReader {
    /// Metadata chunks are tiny; anything bigger is corrupt and skipped rather than loaded.
    static let maxMetadataChunkBytes = 1 << 20

    static func read(path: String) throws(AudioFileError) -> SampleMetadata {
        let opened = try RegularFile.open(path, maxBytes: AudioFileReader.maxFileBytes, what: "CAF file")
        guard let file = fdopen(opened.descriptor, "rb") else {
            close(opened.descriptor)
            throw AudioFileError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 8)
        let headerBytesRead = fread(&header, 1, 8, file)
        var headerCursor = ByteCursor(header)
        guard headerBytesRead == 8, headerCursor.uint32() == fourCC("caff") else {
            throw AudioFileError(path: path, reason: "not a CAF file (no 'caff' header)")
        }
        var chunks: [(type: UInt32, body: [UInt8])] = []
        var chunkHeader = [UInt8](repeating: 0, count: 12)
        while fread(&chunkHeader, 1, 12, file) == 12 {
            var cursor = ByteCursor(chunkHeader)
            let type = cursor.uint32()!
            let size = Int64(bitPattern: cursor.uint64()!)
            guard size >= 0 else { break }  // −1: the audio data runs to the end of the file
            let wanted = [fourCC("inst"), fourCC("regn"), fourCC("mark")].contains(type)
            if wanted && size <= Int64(maxMetadataChunkBytes) {
                var body = [UInt8](repeating: 0, count: Int(size))
                guard fread(&body, 1, Int(size), file) == Int(size) else { break }
                chunks.append((type, body))
            } else if fseeko(file, off_t(size), SEEK_CUR) != 0 {
                break
            }
        }
        var metadata = SampleMetadata()
        var markers: [CAFMarker] = []
        for chunk in chunks {
            switch chunk.type {
            case fourCC("inst"): parseInstrument(chunk.body, into: &metadata)
            case fourCC("regn"): markers += parseEitherOrder(chunk.body, parseRegions)
            default: markers += parseEitherOrder(chunk.body, parseMarkers)
            }
        }
        metadata.loops = loops(from: markers)
        return metadata
    }

    struct CAFMarker {
        var type: UInt32
        var framePosition: Double
    }

    static func parseInstrument(_ body: [UInt8], into metadata: inout SampleMetadata) {
        for bigEndian in [true, false] {
            var cursor = ByteCursor(body, bigEndian: bigEndian)
            guard let baseNote = cursor.float32(), isPlausibleNote(baseNote),
                let lowKey = cursor.uint8(), let highKey = cursor.uint8(),
                let lowVelocity = cursor.uint8(), let highVelocity = cursor.uint8()
            else { continue }
            let root = Int(baseNote.rounded())
            metadata.rootKey = root
            let correction = (Double(root) - Double(baseNote)) * 100
            metadata.fineTuneCents = abs(correction) < 0.01 ? nil : correction
            if lowKey <= highKey && highKey <= 127 { metadata.keyRange = Int(lowKey)...Int(highKey) }
            if lowVelocity <= highVelocity && highVelocity <= 127 {
                metadata.velocityRange = Int(lowVelocity)...Int(highVelocity)
            }
            return
        }
    }

    /// A base note read in the wrong byte order is a denormal or a tiny number, never 0.5…127.5
    /// (exactly 0 reads the same both ways).
    static func isPlausibleNote(_ value: Float) -> Bool {
        value == 0 || (value >= 0.5 && value <= 127.5)
    }

    /// Tries big-endian, then little-endian; a parse is accepted only if every count fits the chunk.
    static func parseEitherOrder(_ body: [UInt8], _ parse: (inout ByteCursor) -> [CAFMarker]?) -> [CAFMarker] {
        for bigEndian in [true, false] {
            var cursor = ByteCursor(body, bigEndian: bigEndian)
            if let markers = parse(&cursor) { return markers }
        }
        return []
    }

    /// `regn`: SMPTE time type, region count, then regions (ID, flags, marker count, markers).
    static func parseRegions(_ cursor: inout ByteCursor) -> [CAFMarker]? {
        guard cursor.skip(4), let regionCount = cursor.uint32(), Int(regionCount) <= cursor.remaining / 12 else { return nil }
        var markers: [CAFMarker] = []
        for _ in 0..<regionCount {
            guard cursor.skip(8), let region = parseMarkerList(&cursor) else { return nil }
            markers += region
        }
        return markers
    }

    /// `mark`: SMPTE time type, then a marker list.
    static func parseMarkers(_ cursor: inout ByteCursor) -> [CAFMarker]? {
        guard cursor.skip(4) else { return nil }
        return parseMarkerList(&cursor)
    }

    /// Marker count, then 28-byte markers: type, Float64 frame position, ID, SMPTE time (8), channel.
    static func parseMarkerList(_ cursor: inout ByteCursor) -> [CAFMarker]? {
        guard let count = cursor.uint32(), Int(count) <= cursor.remaining / 28 else { return nil }
        var markers: [CAFMarker] = []
        for _ in 0..<count {
            guard let type = cursor.uint32(), let position = cursor.float64(), cursor.skip(16),
                position.isFinite, position >= 0, position < Double(Int32.max)
            else { return nil }
            markers.append(CAFMarker(type: type, framePosition: position))
        }
        return markers
    }

    /// Sustain loop first, then the release loop. Marker positions lie between frames (as in AIFF),
    /// so the end marker is already the exclusive end.
    static func loops(from markers: [CAFMarker]) -> [SampleLoop] {
        func position(_ type: StaticString) -> Int? {
            markers.first { $0.type == fourCC(type) }.map { Int($0.framePosition.rounded()) }
        }
        var loops: [SampleLoop] = []
        for (begin, end) in [(position("slbg"), position("slen")), (position("rlbg"), position("rlen"))] {
            if let begin, let end, end > begin { loops.append(SampleLoop(startFrame: begin, endFrame: end)) }
        }
        return loops
    }
}

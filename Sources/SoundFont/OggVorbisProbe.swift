/// Reads what the loader needs of an SF3 sample's Ogg Vorbis stream without decoding it: the
/// identification header (channels, rate) from the first page and the decoded length from the
/// granule position of the last page (Ogg framing, RFC 3533; Vorbis I spec §4.2.2, A.2). This
/// costs a few hundred bytes per sample, so loading an SF3 decodes nothing.
enum OggVorbisProbe {
    struct Facts: Equatable {
        var channels: Int
        var sampleRate: Int
        /// PCM frames the stream decodes to (the last page's granule position).
        var frameCount: Int
    }

    struct Problem: Error {
        var reason: String
    }

    /// A stream's length is only a claim until it is decoded; decoding stops there.
    static let maxFrames = SoundFontSample.maxFrames

    /// The largest Ogg page: 27-byte header, 255 lacing values, 255 × 255 bytes of data.
    static let maxPageBytes = 27 + 255 + 255 * 255

    static func probe(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) -> Result<Facts, Problem> {
        guard let first = page(bytes, at: range.lowerBound, within: range) else {
            return .failure(Problem(reason: "no Ogg page at the start of the stream"))
        }
        // The first packet is the identification header: 0x01 "vorbis", version, channels, rate.
        let packet = first.dataStart
        guard packet + 16 <= first.end, bytes[packet] == 1, (1...6).allSatisfy({ bytes[packet + $0] == Array("vorbis".utf8)[$0 - 1] })
        else { return .failure(Problem(reason: "the Ogg stream is not Vorbis")) }
        let channels = Int(bytes[packet + 11])
        let rate = (0..<4).reduce(0) { $0 | Int(bytes[packet + 12 + $1]) << (8 * $1) }
        guard let frames = lastGranule(bytes, within: range) else {
            return .failure(Problem(reason: "the Ogg stream has no final page with a length"))
        }
        guard frames > 0, frames <= maxFrames else {
            return .failure(Problem(reason: "the Ogg stream claims \(frames) frames (1…\(maxFrames) allowed)"))
        }
        return .success(Facts(channels: channels, sampleRate: rate, frameCount: frames))
    }

    private struct Page {
        var granule: Int64
        var dataStart: Int
        var end: Int
    }

    /// The page whose header starts at `offset`, if a whole, well-formed one lies within `range`.
    private static func page(_ bytes: UnsafeRawBufferPointer, at offset: Int, within range: Range<Int>) -> Page? {
        guard offset >= range.lowerBound, offset + 27 <= range.upperBound, bytes[offset] == 0x4F, bytes[offset + 1] == 0x67,
            bytes[offset + 2] == 0x67, bytes[offset + 3] == 0x53, bytes[offset + 4] == 0
        else { return nil }
        let segments = Int(bytes[offset + 26])
        guard offset + 27 + segments <= range.upperBound else { return nil }
        let dataLength = (0..<segments).reduce(0) { $0 + Int(bytes[offset + 27 + $1]) }
        let end = offset + 27 + segments + dataLength
        guard end <= range.upperBound else { return nil }
        let granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + 6 + $1]) << (8 * UInt64($1)) }
        return Page(granule: Int64(bitPattern: granule), dataStart: offset + 27 + segments, end: end)
    }

    /// The granule position of the last complete page that has one: found by walking the pages
    /// from the start (a few per sample), or, when the page chain is broken, by scanning back from
    /// the end of the stream (at most two maximal pages), as a damaged stream may still decode.
    private static func lastGranule(_ bytes: UnsafeRawBufferPointer, within range: Range<Int>) -> Int? {
        var offset = range.lowerBound
        var granule: Int64 = -1
        while let page = page(bytes, at: offset, within: range) {
            if page.granule >= 0 { granule = page.granule }
            offset = page.end
        }
        if offset == range.upperBound, granule >= 0 { return Int(granule) }
        return scanBack(bytes, within: range)
    }

    private static func scanBack(_ bytes: UnsafeRawBufferPointer, within range: Range<Int>) -> Int? {
        var offset = range.upperBound - 27
        let lowest = max(range.lowerBound, range.upperBound - 2 * maxPageBytes)
        while offset >= lowest {
            if let page = page(bytes, at: offset, within: range), page.granule >= 0 {
                return Int(page.granule)
            }
            offset -= 1
        }
        return nil
    }
}

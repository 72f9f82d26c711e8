/// The header of a 32-bit float WAV file of any length, in a fixed 94-byte layout so that it can
/// be written first and rewritten in place once the length is known: plain RIFF/WAVE while the
/// sizes fit in 32 bits, else RF64 (EBU Tech 3306, as libsndfile and sox read it), whose `ds64`
/// chunk takes the place of the `JUNK` chunk a plain file carries for it. Never wrapped sizes.
public enum WAVHeader {
    public static let byteCount = 94
    /// The largest data chunk a plain WAV can declare (its RIFF size, 86 + data, must fit in 32 bits).
    public static let maxPlainDataBytes = UInt64(UInt32.max) - UInt64(byteCount - 8)

    /// `frames` nil: the length is not known (a pipe), and every size says "as far as the data goes".
    public static func bytes(channels: Int, sampleRate: Int, frames: UInt64?) -> [UInt8] {
        let blockAlign = UInt64(4 * channels)
        let dataBytes = frames.map { $0 * blockAlign }
        let isRF64 = (dataBytes ?? 0) > maxPlainDataBytes
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        func tag(_ text: String) { out += Array(text.utf8) }
        func u16(_ v: UInt64) { for i in 0..<2 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func u32(_ v: UInt64) { for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        func u64(_ v: UInt64) { for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        let unknown = UInt64(UInt32.max)
        let riffBytes = dataBytes.map { $0 + UInt64(byteCount - 8) }

        tag(isRF64 ? "RF64" : "RIFF")
        u32(isRF64 ? unknown : riffBytes ?? unknown)
        tag("WAVE")
        tag(isRF64 ? "ds64" : "JUNK")
        u32(28)
        u64(isRF64 ? riffBytes! : 0)
        u64(isRF64 ? dataBytes! : 0)
        u64(isRF64 ? frames! : 0)
        u32(0)  // no table of other chunk sizes
        tag("fmt ")
        u32(18)
        u16(3)  // WAVE_FORMAT_IEEE_FLOAT
        u16(UInt64(channels))
        u32(UInt64(sampleRate))
        u32(UInt64(sampleRate) * blockAlign)
        u16(blockAlign)
        u16(32)
        u16(0)  // no extension
        tag("fact")  // required beside a non-PCM format: the frame count
        u32(4)
        u32(isRF64 ? unknown : frames.map { min($0, unknown) } ?? unknown)
        tag("data")
        u32(isRF64 ? unknown : dataBytes ?? unknown)
        return out
    }
}

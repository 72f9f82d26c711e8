import Glibc

/// Writes AIFF files with root key and sustain loop (`INST` + `MARK` chunks), which libsndfile
/// cannot write (its `SFC_SET_INSTRUMENT` is a no-op for AIFF). Control/offline thread only.
public enum AIFFWriter {
    /// Writes big-endian PCM (`bitDepth` 8, 16, 24 or 32; samples clip at ±1). `sustainLoop.endFrame`
    /// is exclusive, which is exactly an AIFF end marker (markers sit between frames).
    public static func write(
        path: String, channels: [[Float]], sampleRate: Double, bitDepth: Int = 16, rootKey: Int?,
        sustainLoop: SampleLoop?
    ) throws(AudioFileError) {
        let bytes = try encode(
            path: path, channels: channels, sampleRate: sampleRate, bitDepth: bitDepth, rootKey: rootKey,
            sustainLoop: sustainLoop)
        guard let file = fopen(path, "wb") else {
            throw AudioFileError(path: path, reason: "cannot create: \(String(cString: strerror(errno)))")
        }
        let written = fwrite(bytes, 1, bytes.count, file)
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else {
            throw AudioFileError(path: path, reason: "write failed: \(String(cString: strerror(errno)))")
        }
    }

    static func encode(
        path: String, channels: [[Float]], sampleRate: Double, bitDepth: Int, rootKey: Int?, sustainLoop: SampleLoop?
    ) throws(AudioFileError) -> [UInt8] {
        guard let first = channels.first, channels.allSatisfy({ $0.count == first.count }) else {
            throw AudioFileError(path: path, reason: "channels missing or of different lengths")
        }
        guard channels.count <= Int(UInt16.max), first.count <= Int(UInt32.max) else {
            throw AudioFileError(path: path, reason: "too many channels or frames for an AIFF file")
        }
        guard [8, 16, 24, 32].contains(bitDepth) else {
            throw AudioFileError(path: path, reason: "AIFF bit depth must be 8, 16, 24 or 32, not \(bitDepth)")
        }
        guard sampleRate > 0, sampleRate.isFinite else { throw AudioFileError(path: path, reason: "invalid sample rate") }
        if let loop = sustainLoop, loop.startFrame < 0 || loop.endFrame <= loop.startFrame || loop.endFrame > first.count {
            throw AudioFileError(path: path, reason: "sustain loop \(loop.startFrame)..<\(loop.endFrame) outside 0..<\(first.count)")
        }
        if let key = rootKey, !(0...127).contains(key) {
            throw AudioFileError(path: path, reason: "root key \(key) outside 0…127")
        }
        var out = BigEndianBytes()
        out.bytes += Array("FORM".utf8)
        out.uint32(0)  // patched below
        out.bytes += Array("AIFF".utf8)

        out.chunk("COMM") { body in
            body.uint16(UInt16(channels.count))
            body.uint32(UInt32(first.count))
            body.uint16(UInt16(bitDepth))
            body.extended80(sampleRate)
        }
        if let loop = sustainLoop {
            out.chunk("MARK") { body in
                body.uint16(2)
                for (id, position, name) in [(1, loop.startFrame, "loop start"), (2, loop.endFrame, "loop end")] {
                    body.uint16(UInt16(id))
                    body.uint32(UInt32(position))
                    body.pascalString(name)
                }
            }
        }
        if rootKey != nil || sustainLoop != nil {
            out.chunk("INST") { body in
                body.bytes += [UInt8(rootKey ?? 60), 0, 0, 127, 1, 127]  // base note, detune, keys, velocities
                body.uint16(0)  // gain dB
                body.uint16(sustainLoop == nil ? 0 : 1)  // sustain loop: forward
                body.uint16(sustainLoop == nil ? 0 : 1)  // begin marker id
                body.uint16(sustainLoop == nil ? 0 : 2)  // end marker id
                body.uint16(0); body.uint16(0); body.uint16(0)  // release loop: none
            }
        }
        out.chunk("SSND") { body in
            body.uint32(0)  // offset
            body.uint32(0)  // block size
            let scale = Double((1 << (bitDepth - 1)) - 1)
            let byteCount = bitDepth / 8
            body.bytes.reserveCapacity(body.bytes.count + first.count * channels.count * byteCount)
            for frame in 0..<first.count {
                for channel in channels {
                    let clipped = max(-1, min(1, Double(channel[frame])))
                    let value = UInt32(bitPattern: Int32((clipped * scale).rounded()))
                    for byte in (0..<byteCount).reversed() { body.bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
                }
            }
        }
        out.patchUInt32(at: 4, UInt32(out.bytes.count - 8))
        return out.bytes
    }
}

/// Builds big-endian IFF bytes: chunk headers with sizes, even padding, AIFF's 80-bit float.
struct BigEndianBytes {
    var bytes: [UInt8] = []

    mutating func uint16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    mutating func uint32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func patchUInt32(at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8((value >> (24 - 8 * UInt32(index))) & 0xFF) }
    }

    /// A count byte, the characters, and a pad byte if needed to make the total even.
    mutating func pascalString(_ text: String) {
        let characters = Array(text.utf8.prefix(255))
        bytes.append(UInt8(characters.count))
        bytes += characters
        if (characters.count + 1) % 2 != 0 { bytes.append(0) }
    }

    /// IEEE 754 80-bit extended (sign, 15-bit exponent, 64-bit mantissa with explicit integer bit).
    mutating func extended80(_ value: Double) {
        let (fraction, exponent) = (value.significand, value.exponent)  // value = fraction · 2^exponent, 1 ≤ fraction < 2
        uint16(UInt16(16383 + Int(exponent)))
        let mantissa = UInt64(fraction * 9_223_372_036_854_775_808.0)  // · 2^63
        uint32(UInt32(mantissa >> 32))
        uint32(UInt32(mantissa & 0xFFFF_FFFF))
    }

    mutating func chunk(_ id: String, _ body: (inout BigEndianBytes) -> Void) {
        bytes += Array(id.utf8)
        let sizeOffset = bytes.count
        uint32(0)
        body(&self)
        let size = bytes.count - sizeOffset - 4
        patchUInt32(at: sizeOffset, UInt32(size))
        if size % 2 != 0 { bytes.append(0) }
    }
}

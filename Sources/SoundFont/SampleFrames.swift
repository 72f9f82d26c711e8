import AudioFiles

/// Reading sample data out of the mapped file, on need. Any thread (the storage is immutable);
/// allocates, so never the render thread. The pages a sample was read from are given back to the
/// kernel afterwards, so resident memory holds the Float copies the caller keeps, not the file.
extension SoundFontFile {
    /// The 16-bit pool's frame count (smpl bytes / 2). SF3 Vorbis samples index its bytes instead.
    public var poolFrames: Int { sampleBytes.count / 2 }
    /// Whether 24-bit data (sm24) is used for PCM samples.
    public var has24BitSamples: Bool { sample24Bytes != nil }

    /// The frames of `samples[index]` as Float: 16-bit points / 32768, 24-bit (with sm24) /
    /// 8388608, Vorbis as libsndfile decodes it. `frameCount` of them, except that a damaged Vorbis
    /// stream may decode to fewer (never more: decoding stops at `frameCount`), so loop and play
    /// positions must be clamped into what is returned, as FluidSynth's voices clamp them. Throws,
    /// naming the sample, for a dropped sample or a Vorbis stream that does not decode.
    public func sampleFrames(_ index: Int) throws(SoundFontError) -> [Float] {
        guard samples.indices.contains(index) else {
            throw SoundFontError(path: path, chunk: "pdta/shdr", reason: "no sample \(index) (the font has \(samples.count))")
        }
        let sample = samples[index]
        if case .dropped(let reason) = sample.playability {
            throw SoundFontError(path: path, chunk: "pdta/shdr", reason: "sample \(index) '\(sample.name)' cannot play: \(reason)")
        }
        guard sample.isCompressed else {
            defer {
                storage.release(sampleBytes.lowerBound + 2 * sample.start..<sampleBytes.lowerBound + 2 * sample.end)
                if let low = sample24Bytes { storage.release(low.lowerBound + sample.start..<low.lowerBound + sample.end) }
            }
            return [Float](unsafeUninitializedCapacity: sample.frameCount) { buffer, count in
                pcmFrames(sample.start..<sample.end, into: buffer)
                count = sample.frameCount
            }
        }
        let streamBytes = sampleBytes.lowerBound + sample.start..<sampleBytes.lowerBound + sample.end
        defer { storage.release(streamBytes) }
        return try Self.decodeVorbis(UnsafeRawBufferPointer(rebasing: storage.bytes[streamBytes]), sample: index, sample, at: streamBytes.lowerBound, path: path)
    }

    /// SF3 sample `index`'s Ogg Vorbis stream (file bytes from `offset`) decoded, at most its
    /// `frameCount` frames; throws naming the sample when it does not decode.
    static func decodeVorbis(_ stream: UnsafeRawBufferPointer, sample index: Int, _ sample: SoundFontSample, at offset: Int, path: String) throws(SoundFontError) -> [Float] {
        do {
            return try MemoryAudioDecoder.decodeMono(stream, maxFrames: sample.frameCount, label: "\(path): sample \(index) '\(sample.name)'")
        } catch {
            throw SoundFontError(
                path: path, chunk: "sdta/smpl", byteOffset: offset, reason: "sample \(index) '\(sample.name)': Ogg Vorbis stream does not decode: \(error.reason)")
        }
    }

    /// Frames `range` of `samples[index]` as Float, the same values as `sampleFrames(index)[range]`
    /// (`range` clamped to what the sample holds): a PCM sample reads only those frames from the
    /// file, so no copy of the whole sample is made; a Vorbis stream is decoded whole and sliced.
    /// Throws as `sampleFrames` does.
    public func sampleFrames(_ index: Int, in range: Range<Int>) throws(SoundFontError) -> [Float] {
        guard samples.indices.contains(index), !samples[index].isCompressed, samples[index].isPlayable else {
            let whole = try sampleFrames(index)
            return Array(whole[range.clamped(to: 0..<whole.count)])
        }
        let sample = samples[index]
        let frames = range.clamped(to: 0..<sample.frameCount)
        let pool = sample.start + frames.lowerBound..<sample.start + frames.upperBound
        defer {
            storage.release(sampleBytes.lowerBound + 2 * pool.lowerBound..<sampleBytes.lowerBound + 2 * pool.upperBound)
            if let low = sample24Bytes { storage.release(low.lowerBound + pool.lowerBound..<low.lowerBound + pool.upperBound) }
        }
        return [Float](unsafeUninitializedCapacity: frames.count) { buffer, count in
            pcmFrames(pool, into: buffer)
            count = frames.count
        }
    }

    /// Pool frames `range` (16-bit, plus sm24's low bytes when present) as Float into
    /// `destination`, which must hold `range.count`. The range must lie in `0..<poolFrames`.
    public func pcmFrames(_ range: Range<Int>, into destination: UnsafeMutableBufferPointer<Float>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= poolFrames && destination.count >= range.count, "frames outside the sample pool")
        guard let base = storage.bytes.baseAddress, !range.isEmpty else { return }
        Self.convert(
            points: base + sampleBytes.lowerBound + 2 * range.lowerBound, lowBytes: sample24Bytes.map { base + $0.lowerBound + range.lowerBound },
            count: range.count, into: destination.baseAddress!)
    }

    /// `count` 16-bit little-endian points at `points` (with sm24's low bytes at `lowBytes`: 24-bit)
    /// as Float: / 32768, or / 8388608.
    static func convert(points: UnsafeRawPointer, lowBytes: UnsafeRawPointer?, count: Int, into destination: UnsafeMutablePointer<Float>) {
        let bytes = points.assumingMemoryBound(to: UInt8.self)
        if let lowBytes {
            let low = lowBytes.assumingMemoryBound(to: UInt8.self), scale = Float(1) / 8_388_608
            for i in 0..<count {
                let high = Int32(Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8))
                destination[i] = Float(high << 8 | Int32(low[i])) * scale
            }
        } else {
            let scale = Float(1) / 32_768
            for i in 0..<count {
                destination[i] = Float(Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8)) * scale
            }
        }
    }

    /// Pool frames `range` (16-bit, no sm24) as the file's points into `destination`, which must
    /// hold `range.count`, as `pcmFrames` gives them as Float; the range must lie in `0..<poolFrames`.
    /// Like `sampleFrames`, gives the mapped pages back once read.
    public func copyPCM16(_ range: Range<Int>, into destination: UnsafeMutablePointer<Int16>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= poolFrames, "frames outside the sample pool")
        guard let base = storage.bytes.baseAddress, !range.isEmpty else { return }
        let bytes = sampleBytes.lowerBound + 2 * range.lowerBound..<sampleBytes.lowerBound + 2 * range.upperBound
        defer { storage.release(bytes) }
        UnsafeMutableRawPointer(destination).copyMemory(from: base + bytes.lowerBound, byteCount: bytes.count)
        for i in 0..<range.count { destination[i] = Int16(littleEndian: destination[i]) }  // the file is little-endian
    }
}

/// Reads shdr (spec §7.10) into `SoundFontSample`s and decides, as FluidSynth 2.3 does (sfont
/// `fluid_sample_validate` and `fluid_sample_sanitize_loop`), which samples play:
///
/// - start ≥ end or end beyond the smpl pool: dropped ("invalid start/end"), zones using it are mute;
/// - ROM samples: dropped (no ROM); Vorbis-flagged samples outside an SF3: dropped;
/// - loops: start == end kept (a disabled loop); reversed swapped; a loop point before the
///   sample or past the pool moved to the sample's start/end (past the sample but inside the
///   pool is kept, as FluidSynth does); one warning names the samples;
/// - sample rate 0 or above 768 kHz: dropped (FluidSynth plays them, at no usable pitch).
///
/// For SF3 Vorbis samples (type bit 0x10) start/end are byte offsets into smpl (end exclusive) and
/// the frame count comes from the stream's last Ogg page, so loops are sanitized at load too.
struct SampleHeaderReader {
    let reader: ChunkReader
    let isSF3: Bool
    /// The smpl chunk's body, in file bytes.
    let pool: Range<Int>
    var poolBytes: Int { pool.count }
    var warnings: [String] = []
    var unsupported = UnsupportedFeatures()

    static let sampleRates = 1...768_000

    mutating func read(_ table: RecordTable) throws(FormatIssue) -> [SoundFontSample] {
        guard table.count <= HydraReader.maxHeaders + 1 else {
            throw table.tooMany(limit: HydraReader.maxHeaders)
        }
        var samples = (0..<table.count).map { sample(at: table.offset($0)) }
        if let last = samples.last, last.name != "EOS", last.start != 0 || last.end != 0 {
            warnings.append("\(table.path): no terminal record; the last record '\(last.name)' is read as a sample")
        } else if !samples.isEmpty {
            samples.removeLast()
        }
        var dropped: [String] = [], sanitized: [String] = []
        for i in samples.indices {
            validate(&samples[i])
            if case .dropped(let reason) = samples[i].playability {
                dropped.append("'\(samples[i].name)' (\(reason))")
            } else if sanitizeLoop(&samples[i]) {
                sanitized.append("'\(samples[i].name)'")
            }
        }
        if !dropped.isEmpty { warnings.append("\(table.path): \(Self.samples(dropped.count)) cannot play: \(Self.list(dropped))") }
        if !sanitized.isEmpty {
            warnings.append("\(table.path): invalid loops sanitized as FluidSynth does in \(Self.samples(sanitized.count)): \(Self.list(sanitized))")
        }
        return samples
    }

    static func samples(_ count: Int) -> String { count == 1 ? "1 sample" : "\(count) samples" }

    /// The first few items and how many more, so one warning stays one line.
    static func list(_ items: [String], shown: Int = 5) -> String {
        items.prefix(shown).joined(separator: ", ") + (items.count > shown ? ", and \(items.count - shown) more" : "")
    }

    private func sample(at offset: Int) -> SoundFontSample {
        let start = Int(reader.uint32(offset + 20)), end = Int(reader.uint32(offset + 24))
        return SoundFontSample(
            name: reader.name(offset), start: start, end: end, frameCount: max(0, end - start),
            loopStart: Int(reader.uint32(offset + 28)), loopEnd: Int(reader.uint32(offset + 32)), sampleRate: Int(reader.uint32(offset + 36)),
            originalPitch: Int(reader.uint8(offset + 40)), pitchCorrection: Int(Int8(bitPattern: reader.uint8(offset + 41))),
            link: Int(reader.uint16(offset + 42)), typeBits: reader.uint16(offset + 44))
    }

    private mutating func validate(_ sample: inout SoundFontSample) {
        func drop(_ reason: String) { sample.playability = .dropped(reason: reason) }
        if sample.isROM {
            unsupported.add("ROM samples (no ROM here)")
            return drop("ROM sample")
        }
        if sample.isCompressed && !isSF3 { return drop("Ogg Vorbis flag in a SoundFont 2 file") }
        let poolEnd = sample.isCompressed ? poolBytes : poolBytes / 2
        guard sample.start < sample.end, sample.end <= poolEnd else {
            return drop("invalid start/end \(sample.start)–\(sample.end) in a pool of \(poolEnd) \(sample.isCompressed ? "bytes" : "frames")")
        }
        guard Self.sampleRates.contains(sample.sampleRate) else { return drop("sample rate \(sample.sampleRate) Hz") }
        guard sample.isCompressed || sample.end - sample.start <= SoundFontSample.maxFrames else {
            return drop("\(sample.end - sample.start) frames, more than \(SoundFontSample.maxFrames)")
        }
        if sample.isCompressed {
            switch OggVorbisProbe.probe(reader.bytes, range: pool.lowerBound + sample.start..<pool.lowerBound + sample.end) {
            case .success(let facts):
                guard facts.channels == 1 else { return drop("Ogg Vorbis stream with \(facts.channels) channels, not mono") }
                sample.frameCount = facts.frameCount
            case .failure(let problem):
                return drop(problem.reason)
            }
        }
    }

    /// FluidSynth's loop sanitizing; true if anything changed. PCM loops are stored pool-absolute
    /// and become relative to the sample's start here; SF3 loops are relative already.
    private func sanitizeLoop(_ sample: inout SoundFontSample) -> Bool {
        let base = sample.isCompressed ? 0 : sample.start
        let sampleEnd = sample.isCompressed ? sample.frameCount : sample.end
        let limit = sample.isCompressed ? sample.frameCount : poolBytes / 2
        var loopStart = sample.loopStart, loopEnd = sample.loopEnd
        var changed = false
        if loopStart > loopEnd {
            swap(&loopStart, &loopEnd)
            changed = true
        }
        // Applies to a disabled loop (start == end) too: one outside the sample becomes the whole sample.
        if loopStart < base || loopStart > limit {
            loopStart = base
            changed = true
        }
        if loopEnd < base || loopEnd > limit {
            loopEnd = sampleEnd
            changed = true
        }
        sample.loopStart = loopStart - base
        sample.loopEnd = loopEnd - base
        return changed
    }
}

import CSndFile

/// Bridges libsndfile's `SF_INSTRUMENT` (WAV `smpl`, AIFF `INST`+`MARK`) to `SampleMetadata`.
///
/// Swift's importer drops `SF_INSTRUMENT.loops` (an array of an anonymous struct), so the struct is
/// handled in a buffer of the full C size: `csf_instrument_get_loop` reads loops, and writing stores
/// `csf_loop` values (same layout: int, 3 × unsigned) right after `loop_count`, where C puts `loops`.
enum SndFileInstrument {
    /// `SF_INSTRUMENT` holds at most 16 loops.
    static let maxLoops = 16
    static var loopsByteOffset: Int {
        (MemoryLayout<SF_INSTRUMENT>.offset(of: \SF_INSTRUMENT.loop_count) ?? 12) + MemoryLayout<Int32>.size
    }
    static var byteCount: Int {
        max(MemoryLayout<SF_INSTRUMENT>.size, loopsByteOffset + maxLoops * MemoryLayout<csf_loop>.stride)
    }

    /// Runs `body` with a zeroed, full-size `SF_INSTRUMENT`.
    static func withRecord<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { raw in
            let base = raw.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            return body(base)
        }
    }

    /// Reads the instrument record of an open file; `carriesRanges` says whether the format stores
    /// key/velocity ranges (AIFF does; for WAV libsndfile invents 0…127).
    static func metadata(of file: OpaquePointer, carriesRanges: Bool) throws(AudioFileError) -> SampleMetadata? {
        let meta = withRecord { raw -> SampleMetadata? in
            let inst = raw.assumingMemoryBound(to: SF_INSTRUMENT.self)
            let ok = sf_command(file, Int32(SFC_GET_INSTRUMENT), raw, Int32(byteCount))
            guard ok == SF_TRUE else { return nil }
            var meta = SampleMetadata()
            let record = inst.pointee
            meta.rootKey = Int(record.basenote)
            if record.detune != 0 {
                // WAV stores a pitch fraction above the root (0…99 cents); AIFF a signed playback detune.
                meta.fineTuneCents = carriesRanges ? Double(record.detune) : -Double(UInt8(bitPattern: record.detune))
            }
            if carriesRanges {
                let keys = (Int(record.key_lo), Int(record.key_hi))
                if keys.0 <= keys.1 { meta.keyRange = keys.0...keys.1 }
                let velocities = (Int(record.velocity_lo), Int(record.velocity_hi))
                if velocities.0 <= velocities.1 { meta.velocityRange = velocities.0...velocities.1 }
            }
            let count = min(Int(csf_instrument_loop_count(inst)), maxLoops)
            for index in 0..<max(count, 0) {
                let loop = csf_instrument_get_loop(inst, Int32(index))
                // libsndfile already reports loop ends exclusive for both WAV (it adds 1 to smpl's
                // inclusive end) and AIFF (MARK positions lie between frames); verified by tests.
                guard loop.mode != Int32(SF_LOOP_NONE), loop.end > loop.start else { continue }
                meta.loops.append(SampleLoop(startFrame: Int(loop.start), endFrame: Int(loop.end)))
            }
            return meta
        }
        if let root = meta?.rootKey, !(0...127).contains(root) {
            throw AudioFileError(path: "", reason: "base note \(root) is outside the MIDI range 0…127; fix the file's root key")
        }
        return meta
    }

    /// Writes a WAV `smpl` chunk (root key and forward loops) into a file opened for writing,
    /// before any audio is written.
    static func write(rootKey: Int?, loops: [SampleLoop], to file: OpaquePointer, path: String) throws(AudioFileError) {
        guard rootKey != nil || !loops.isEmpty else { return }
        guard loops.count <= maxLoops else {
            throw AudioFileError(path: path, reason: "at most \(maxLoops) loops can be stored, got \(loops.count)")
        }
        for loop in loops where loop.startFrame < 0 || loop.endFrame <= loop.startFrame || loop.endFrame > Int(UInt32.max) {
            throw AudioFileError(path: path, reason: "invalid loop \(loop.startFrame)..<\(loop.endFrame)")
        }
        let ok = withRecord { raw -> Bool in
            let inst = raw.assumingMemoryBound(to: SF_INSTRUMENT.self)
            inst.pointee.basenote = CChar(clamping: rootKey ?? 60)
            inst.pointee.key_lo = 0
            inst.pointee.key_hi = 127
            inst.pointee.velocity_lo = 1
            inst.pointee.velocity_hi = 127
            inst.pointee.gain = 1
            inst.pointee.loop_count = Int32(loops.count)
            for (index, loop) in loops.enumerated() {
                let value = csf_loop(
                    mode: Int32(SF_LOOP_FORWARD), start: UInt32(loop.startFrame), end: UInt32(loop.endFrame), count: 0)
                raw.storeBytes(of: value, toByteOffset: loopsByteOffset + index * MemoryLayout<csf_loop>.stride, as: csf_loop.self)
            }
            return sf_command(file, Int32(SFC_SET_INSTRUMENT), raw, Int32(byteCount)) == SF_TRUE
        }
        guard ok else { throw AudioFileError(path: path, reason: "libsndfile refused the instrument (smpl) chunk") }
    }
}

import DSP

/// What a group's voices did in one chunk of a span (`SpanMemory.chunkFlags`).
enum ChunkFlags {
    /// Some voice of the group sounded: its sub-mix holds the chunk.
    static let sounded: UInt8 = 1
    /// An AUSampler voice sounded: the whole sub-mix takes the part's CC91/CC93 sends.
    static let sendsWholeMix: UInt8 = 2
    /// A SoundFont voice added to the group's own send sums.
    static let soundFontSent: UInt8 = 4
}

/// Rendering a span (the frames between two events) group by group (`SpanMemory`). Within a span
/// no voice starts and none moves between parts, so each part's controller state can be stepped
/// through the span's chunks first (`prepareContext`, its values for each chunk), and then each group
/// of its voices rendered through the whole span into the group's sub-mix, by whichever worker
/// claims the group (`PartTaskBoard`). A part's extra groups are then added to its first, in
/// order, and the parts to the output chunk by chunk in part order: the same sums in the same
/// order whoever rendered what, so the output does not depend on the workers. A part of up to
/// `SpanMemory.groupSize` voices sums them exactly as rendering voice after voice did.
extension SamplerInstrument {
    /// Render thread: renders the sounding groups (helpers claiming some of them), then adds
    /// their sub-mixes to `block` and `sends`.
    @_noAllocation
    func renderSpan(into block: StereoBlock, sends: SendTarget?, at sendOffset: Int) {
        let span = span
        span.takesSends.pointee = sends != nil
        let count = formGroups()
        // Read once a span: each read of a class's var is checked for exclusive access.
        let tuning = (quality: quality, a4Semitones: a4Semitones)
        for c in 0..<SamplerConstants.partCount where span.slotCounts[c] > 0 {
            prepareChunks(c, frames: block.frames, sends: sends != nil, quality: tuning.quality, a4Semitones: tuning.a4Semitones)
        }
        let posted = board.pointee.post(frames: block.frames, tasks: span.order, weight: span.groupVoices, count: count)
        renderClaimedGroups(span: posted, worker: 0)
        // Part by part, each as soon as its groups are done: the parts ahead of a helper's last
        // group are merged while it renders, not after.
        for c in 0..<SamplerConstants.partCount {
            if span.slotCounts[c] > 0 {
                board.pointee.waitFor(task: c, span: posted)
                for extra in span.extraStart[c]..<span.extraStart[c] + span.extraCount[c] { board.pointee.waitFor(task: extra, span: posted) }
                if span.extraCount[c] > 0 { addExtraGroups(of: c, frames: block.frames) }
            }
            mergePart(c, into: block, sends: sends, at: sendOffset)
        }
        frameClock &+= UInt64(block.frames)
    }

    /// Gathers each part's sounding voices in slot order (none starts within the span) and cuts
    /// them into groups; orders the groups busiest first (the last one claimed is a short one).
    /// Returns how many groups there are.
    @_noAllocation
    private func formGroups() -> Int {
        let span = span, groupSize = SpanMemory.groupSize, partCount = SamplerConstants.partCount
        span.slotCounts.update(repeating: 0, count: partCount)
        for slot in 0..<voiceSlots where voices[slot].isActive {
            let c = voices[slot].channel
            span.slots[c * span.voiceSlots + span.slotCounts[c]] = slot
            span.slotCounts[c] += 1
        }
        var groups = 0, extra = partCount
        func add(_ group: Int) {
            var i = groups
            while i > 0 && span.groupVoices[span.order[i - 1]] < span.groupVoices[group] {
                span.order[i] = span.order[i - 1]
                i -= 1
            }
            span.order[i] = group
            groups += 1
        }
        for c in 0..<partCount {
            let sounding = span.slotCounts[c]
            span.extraStart[c] = extra
            span.extraCount[c] = 0
            guard sounding > 0 else { continue }
            var first = 0
            while first < sounding {
                let group = first == 0 ? c : extra
                span.groupPart[group] = c
                span.groupFirst[group] = first
                span.groupVoices[group] = min(groupSize, sounding - first)
                add(group)
                if first > 0 {
                    extra += 1
                    span.extraCount[c] += 1
                }
                first += groupSize
            }
        }
        return groups
    }

    /// Steps part `c`'s smoothers through the span, keeping its context for each chunk.
    @_noAllocation
    private func prepareChunks(_ c: Int, frames: Int, sends: Bool, quality: InterpolationQuality, a4Semitones: Double) {
        var offset = 0, chunk = 0
        while offset < frames {
            let n = min(SamplerConstants.chunkFrames, frames - offset)
            prepareContext(
                channel: c, frames: n, sends: sends, quality: quality, a4Semitones: a4Semitones, into: span.chunks + c * span.maxChunks + chunk)
            offset += n
            chunk += 1
        }
    }

    /// Helper thread `worker` (1 ..< `workerCount`) of an offline render: the number of the span
    /// posted last; when it changes, `help(span:worker:)` takes part in it.
    public var postedSpan: Int {
        @_noAllocation get { board.pointee.span }
    }

    /// Helper thread `worker` (1 ..< `workerCount`): renders groups of span `span` until none is
    /// left to claim (at once when the render thread has claimed them all already); returns
    /// how many it rendered.
    @_noAllocation
    @discardableResult
    public func help(span: Int, worker: Int) -> Int {
        let workerCount = workerCount  // a local: `&&` would capture `self` (a retain)
        precondition(worker > 0 && worker < workerCount, "helper worker out of range")
        return renderClaimedGroups(span: span, worker: worker)
    }

    @_noAllocation
    @discardableResult
    private func renderClaimedGroups(span: Int, worker: Int) -> Int {
        var rendered = 0, taken = 0
        while let task = board.pointee.claim(span: span, worker: worker, taken: &taken) {
            renderGroup(task.task, frames: task.frames, worker: worker)
            board.pointee.finish(task: task.task, span: span)
            rendered += 1
        }
        return rendered
    }

    /// Group `group`'s voices through the span, chunk by chunk, into its sub-mix, reading its
    /// part's chunk values in `worker`'s context; records per chunk what they did.
    @_noAllocation
    private func renderGroup(_ group: Int, frames: Int, worker: Int) {
        let span = span, context = span.workerContexts.pointer(worker)
        let c = span.groupPart[group]
        let slots = span.slots + c * span.voiceSlots + span.groupFirst[group], count = span.groupVoices[group]
        let takesSends = span.takesSends.pointee, sent = span.sentFlag(group)
        let mixes = span.mix(group), flags = span.chunkFlags(group)
        var offset = 0, chunk = 0
        while offset < frames {
            let n = min(SamplerConstants.chunkFrames, frames - offset)
            let mix = mixes.slice(from: offset, count: n)
            var did: UInt8 = 0
            for i in 0..<count {
                let slot = slots[i]
                guard voices[slot].isActive else { continue }
                if did == 0 {
                    did = ChunkFlags.sounded
                    mix.clear()
                    context.pointee.chunk = UnsafePointer(span.chunks + c * span.maxChunks + chunk)
                    let sums = span.sends(group, offset: offset, frames: n)
                    context.pointee.soundFont.reverb = sums.reverb
                    context.pointee.soundFont.chorus = sums.chorus
                    context.pointee.soundFont.sent = sent
                    sent.pointee = false
                    if takesSends {
                        sums.reverb.clear()
                        sums.chorus.clear()
                    }
                }
                if !voices[slot].isSoundFont { did |= ChunkFlags.sendsWholeMix }
                voices[slot].render(into: mix, context: context)
                if !voices[slot].isActive { voices[slot].releaseRegion() }
            }
            if did != 0 && sent.pointee { did |= ChunkFlags.soundFontSent }
            flags[chunk] = did
            offset += n
            chunk += 1
        }
    }

    /// Adds part `c`'s extra groups to its first group, chunk by chunk in group order (a chunk
    /// the first group did not sound in takes the first extra group that did as it is).
    @_noAllocation
    private func addExtraGroups(of c: Int, frames: Int) {
        let span = span, mix = span.mix(c), flags = span.chunkFlags(c)
        var offset = 0, chunk = 0
        while offset < frames {
            let n = min(SamplerConstants.chunkFrames, frames - offset)
            let into = mix.slice(from: offset, count: n), sums = span.sends(c, offset: offset, frames: n)
            for extra in span.extraStart[c]..<span.extraStart[c] + span.extraCount[c] {
                let did = span.chunkFlags(extra)[chunk]
                guard did != 0 else { continue }
                let add = flags[chunk] != 0
                combine(span.mix(extra).slice(from: offset, count: n), into: into, add: add)
                if did & ChunkFlags.soundFontSent != 0 {
                    let extraSums = span.sends(extra, offset: offset, frames: n)
                    let sent = flags[chunk] & ChunkFlags.soundFontSent != 0
                    combine(extraSums.reverb, into: sums.reverb, add: sent)
                    combine(extraSums.chorus, into: sums.chorus, add: sent)
                }
                flags[chunk] |= did
            }
            offset += n
            chunk += 1
        }
    }

    /// Adds part `c`'s sub-mix to `block` and its sends, chunk by chunk, taking its peak; moves its
    /// send smoothers on (and its gains when it did not render). Called in part order, so every
    /// frame of `block` and the sends sums the parts in that order, as a chunk-by-chunk merge did.
    @_noAllocation
    private func mergePart(_ c: Int, into block: StereoBlock, sends: SendTarget?, at sendOffset: Int) {
        let span = span, rendered = span.slotCounts[c] > 0
        var offset = 0, chunk = 0
        while offset < block.frames {
            let n = min(SamplerConstants.chunkFrames, block.frames - offset)
            defer {
                offset += n
                chunk += 1
            }
            let did = rendered ? span.chunkFlags(c)[chunk] : 0
            guard did != 0 else {
                if !rendered { parts[c].gains.advance(frames: n) }  // a rendered part stepped its own
                parts[c].sends.advance(frames: n)
                continue
            }
            let mix = span.mix(c).slice(from: offset, count: n)
            partPeaks[c] = PartMix.add(mix, into: block.slice(from: offset, count: n), peak: partPeaks[c])
            // Parts with AUSampler voices in the chunk: only their mix takes the part's
            // CC91/CC93 sends (SoundFont voices send by themselves, per zone).
            if let sends, did & ChunkFlags.sendsWholeMix != 0 {
                sends.add(mix, at: sendOffset + offset, levels: &parts[c].sends)
            } else {
                parts[c].sends.advance(frames: n)
            }
            if let sends, did & ChunkFlags.soundFontSent != 0 {
                let sums = span.sends(c, offset: offset, frames: n)
                sends.addScaled(reverb: sums.reverb, chorus: sums.chorus, at: sendOffset + offset)
            }
        }
    }
}

/// `into` += `source` (`add`), or `into` = `source`.
@_noAllocation
private func combine(_ source: StereoBlock, into: StereoBlock, add: Bool) {
    guard add else { return into.copy(from: source) }
    for i in 0..<source.frames {
        into.left[i] += source.left[i]
        into.right[i] += source.right[i]
    }
}

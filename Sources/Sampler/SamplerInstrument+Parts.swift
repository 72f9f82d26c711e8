import DSP

/// What a part's voices did in one chunk of a span (`SamplerInstrument.chunkFlags`).
enum ChunkFlags {
    /// Some voice of the part sounded: its sub-mix holds the chunk.
    static let sounded: UInt8 = 1
    /// An AUSampler voice sounded: the whole sub-mix takes the part's CC91/CC93 sends.
    static let sendsWholeMix: UInt8 = 2
    /// A SoundFont voice added to the part's own send sums.
    static let soundFontSent: UInt8 = 4
}

/// Rendering a span (the frames between two events) part by part. Within a span no voice starts
/// and none moves between parts, so each part's voices can be rendered through the whole span
/// into the part's own sub-mix, by whichever worker claims the part (`PartTaskBoard`), before the
/// sub-mixes are added up chunk by chunk in part order: the same sums in the same order as
/// rendering chunk by chunk across all parts, so the output does not depend on the workers.
extension SamplerInstrument {
    /// Render thread: renders the sounding parts (helpers claiming some of them), then adds their
    /// sub-mixes to `block` and `sends`.
    @_noAllocation
    func renderSpan(into block: StereoBlock, sends: SendTarget?, at sendOffset: Int) {
        let partCount = SamplerConstants.partCount
        // Each part's voices in slot order, gathered once: none starts within the span.
        partSlotCounts.update(repeating: 0, count: partCount)
        for slot in 0..<voiceSlots where voices[slot].isActive {
            let c = voices[slot].channel
            partSlots[c * voiceSlots + partSlotCounts[c]] = slot
            partSlotCounts[c] += 1
        }
        // The busiest parts first, so that the last part claimed is a short one.
        let counts = partSlotCounts, order = taskOrder  // locals: `&&` would capture `self` (a retain)
        var count = 0
        for c in 0..<partCount where counts[c] > 0 {
            var i = count
            while i > 0 && counts[order[i - 1]] < counts[c] {
                order[i] = order[i - 1]
                i -= 1
            }
            order[i] = c
            count += 1
        }
        spanTakesSends.pointee = sends != nil
        let span = board.pointee.post(frames: block.frames, parts: taskOrder, weight: partSlotCounts, count: count)
        renderClaimedParts(span: span, worker: 0)
        board.pointee.waitForOthers()
        mergeParts(into: block, sends: sends, at: sendOffset)
    }

    /// Helper thread `worker` (1 ..< `workerCount`) of an offline render: the number of the span
    /// posted last; when it changes, `help(span:worker:)` takes part in it.
    public var postedSpan: Int {
        @_noAllocation get { board.pointee.span }
    }

    /// Helper thread `worker` (1 ..< `workerCount`): renders parts of span `span` until none is
    /// left to claim (at once when the render thread has claimed them all already); returns
    /// how many it rendered.
    @_noAllocation
    @discardableResult
    public func help(span: Int, worker: Int) -> Int {
        let workerCount = workerCount  // a local: `&&` would capture `self` (a retain)
        precondition(worker > 0 && worker < workerCount, "helper worker out of range")
        return renderClaimedParts(span: span, worker: worker)
    }

    @_noAllocation
    @discardableResult
    private func renderClaimedParts(span: Int, worker: Int) -> Int {
        var rendered = 0, taken = 0
        while let task = board.pointee.claim(span: span, worker: worker, taken: &taken) {
            renderPart(task.part, frames: task.frames, worker: worker)
            board.pointee.finish()
            rendered += 1
        }
        return rendered
    }

    /// Part `c`'s voices through the span, chunk by chunk, into its sub-mix, with `worker`'s
    /// scratch; records per chunk what they did (`ChunkFlags`).
    @_noAllocation
    private func renderPart(_ c: Int, frames: Int, worker: Int) {
        let scratch = workers[worker]
        contexts[c].scratchLeft = scratch.left
        contexts[c].scratchRight = scratch.right
        contexts[c].filterDiscard = scratch.filterDiscard
        contexts[c].levels = scratch.levels
        contexts[c].soundFont.generatorScratch = scratch.generators
        let slots = partSlots + c * voiceSlots, slotCount = partSlotCounts[c]
        let takesSends = spanTakesSends.pointee
        let mixes = partBlock(c), flags = chunkFlags + c * flagStride
        var offset = 0, chunk = 0
        while offset < frames {
            let n = min(SamplerConstants.chunkFrames, frames - offset)
            let mix = mixes.slice(from: offset, count: n)
            var did: UInt8 = 0
            for i in 0..<slotCount {
                let slot = slots[i]
                guard voices[slot].isActive else { continue }
                if did == 0 {
                    did = ChunkFlags.sounded
                    mix.clear()
                    prepareContext(channel: c, offset: offset, frames: n, sends: takesSends)
                }
                if !voices[slot].isSoundFont { did |= ChunkFlags.sendsWholeMix }
                // By address: passed by value, the context was copied for every voice and chunk.
                voices[slot].render(into: mix, context: contexts + c)
                if !voices[slot].isActive { voices[slot].releaseRegion() }
            }
            if did == 0 {
                parts[c].gains.advance(frames: n)
            } else if contexts[c].soundFont.sent.pointee {
                did |= ChunkFlags.soundFontSent
            }
            flags[chunk] = did
            offset += n
            chunk += 1
        }
    }

    /// Adds the parts' sub-mixes to `block` and their sends, chunk by chunk in part order,
    /// taking each part's peak; moves the other parts' smoothers on.
    @_noAllocation
    private func mergeParts(into block: StereoBlock, sends: SendTarget?, at sendOffset: Int) {
        var offset = 0, chunk = 0
        while offset < block.frames {
            let n = min(SamplerConstants.chunkFrames, block.frames - offset)
            let out = block.slice(from: offset, count: n)
            for c in 0..<SamplerConstants.partCount {
                let rendered = partSlotCounts[c] > 0
                let did = rendered ? chunkFlags[c * flagStride + chunk] : 0
                guard did != 0 else {
                    if !rendered { parts[c].gains.advance(frames: n) }  // a rendered part moved its own
                    parts[c].sends.advance(frames: n)
                    continue
                }
                let mix = partBlock(c).slice(from: offset, count: n)
                partPeaks[c] = PartMix.add(mix, into: out, peak: partPeaks[c])
                // Parts with AUSampler voices in the chunk: only their mix takes the part's
                // CC91/CC93 sends (SoundFont voices send by themselves, per zone).
                if let sends, did & ChunkFlags.sendsWholeMix != 0 {
                    sends.add(mix, at: sendOffset + offset, levels: &parts[c].sends)
                } else {
                    parts[c].sends.advance(frames: n)
                }
                if let sends, did & ChunkFlags.soundFontSent != 0 {
                    let sums = soundFontMemory.sends(channel: c, offset: offset, frames: n)
                    sends.addScaled(reverb: sums.reverb, chorus: sums.chorus, at: sendOffset + offset)
                }
            }
            frameClock &+= UInt64(n)
            offset += n
            chunk += 1
        }
    }
}

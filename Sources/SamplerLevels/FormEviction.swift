import Sampler

/// What the live builder withdraws when a form does not fit its budget: forms of one kind (levels,
/// or deferred regions' frames) whose regions were used least recently, a region's use being its
/// last note-on or the last selection of its program by a part, whichever came later. A form
/// several programs share (one `RegionLevels` or `RegionFrames`) counts as used when any of them
/// used it, and is withdrawn from all. Never one used at or after the stamp of what needs the room,
/// and never freed under a voice: a withdrawn form waits for its voices (`FormSlot`). Loading side.
enum FormEviction {
    /// Withdraws forms of `kind` used before `stamp`, least recently used first, until `bytes`
    /// more than `budget`'s headroom are on their way out (freed once their voices end), then lets
    /// go of those no voice holds. Returns the regions it withdrew, and whether withdrawn forms
    /// (of any kind, these or earlier ones) still wait for their voices.
    @discardableResult
    static func withdraw(
        _ kind: FormKind, from programs: [SamplerProgram], freeing bytes: Int, budget: LevelBudget, olderThan stamp: UInt64
    ) -> (withdrawn: [(program: SamplerProgram, region: Int)], waiting: Bool) {
        var groups: [ObjectIdentifier: (bytes: Int, holders: [(SamplerProgram, Int)], lastUse: UInt64)] = [:]
        for program in programs {
            let selected = program.selectionStamp
            let published: [(region: Int, owner: AnyObject, bytes: Int, lastStrike: UInt64)] =
                switch kind {
                case .levels: program.publishedLevels.map { ($0.region, $0.levels, $0.levels.byteCount, $0.lastStrike) }
                case .plain: program.publishedFrames.map { ($0.region, $0.frames, $0.frames.byteCount, $0.lastStrike) }
                }
            for entry in published {
                let id = ObjectIdentifier(entry.owner)
                var group = groups[id] ?? (entry.bytes, [], 0)
                group.holders.append((program, entry.region))
                group.lastUse = max(group.lastUse, entry.lastStrike, selected)
                groups[id] = group
            }
        }
        var needed = bytes - (budget.limitBytes - budget.usedBytes)
        var withdrawn: [(program: SamplerProgram, region: Int)] = []
        for group in groups.values.sorted(by: { $0.lastUse < $1.lastUse }) where needed > 0 && group.lastUse < stamp {
            for (program, region) in group.holders {
                switch kind {
                case .levels: program.withdrawLevels(region: region)
                case .plain: program.withdrawFrames(region: region)
                }
            }
            withdrawn += group.holders.map { ($0.0, $0.1) }
            needed -= group.bytes
        }
        let waiting = programs.reduce(0) { $0 + $1.reclaimWithdrawnLevels() }
        return (withdrawn, waiting > 0)
    }
}

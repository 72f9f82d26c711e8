/// The forms of one kind (band-limited levels, or a deferred region's plain frames) that a
/// program's regions have published or withdrawn, each with the object owning its memory
/// (`RegionLevels`, `RegionFrames`). Control side, under the program's lock (`RegionStorage`).
///
/// The safe-reclamation protocol of `FormSlot`: publishing stores the form's address in the
/// region's slot; withdrawing clears it and keeps the form until `reclaim` sees no reader; a
/// region takes a new form only once its withdrawn one is freed, or takes that one back.
struct FormBook<Owner: AnyObject> {
    let kind: FormKind
    private var published: [(form: UnsafeMutablePointer<PlaybackRegion>, owner: Owner)?] = []
    /// Forms withdrawn and not freed yet: a voice may still read them.
    private var withdrawn: [(region: Int, form: UnsafeMutablePointer<PlaybackRegion>, owner: Owner)] = []

    init(kind: FormKind) { self.kind = kind }

    /// A region was added (index `published.count`).
    mutating func addRegion() { published.append(nil) }

    /// What region `region` plays in this kind now, if anything.
    func owner(_ region: Int) -> Owner? { published[region]?.owner }

    /// Whether region `region`'s withdrawn form still waits for its voices.
    func isWaiting(_ region: Int) -> Bool { withdrawn.contains { $0.region == region } }

    /// Every region with a published form, and its owner.
    var all: [(region: Int, owner: Owner)] { published.indices.compactMap { index in published[index].map { (index, $0.owner) } } }

    /// Publishes `owner`'s form (`form()`, made only when needed) for `region` through `cell`.
    /// False, publishing nothing, if the region has one, or its withdrawn one still waits for
    /// voices and `owner` is another (the same owner is published again as it is).
    mutating func publish(_ owner: Owner, region: Int, cell: UnsafePointer<RegionCell>, form: () -> PlaybackRegion) -> Bool {
        guard published[region] == nil else { return false }
        if let held = withdrawn.firstIndex(where: { $0.region == region }) {
            guard withdrawn[held].owner === owner else { return false }
            let entry = withdrawn.remove(at: held)
            published[region] = (entry.form, entry.owner)
            cell.pointee.store(kind, address: Int(bitPattern: entry.form))
            return true
        }
        let made = UnsafeMutablePointer<PlaybackRegion>.allocate(capacity: 1)
        made.initialize(to: form())
        published[region] = (made, owner)
        cell.pointee.store(kind, address: Int(bitPattern: made))
        return true
    }

    /// Withdraws region `region`'s form: later note-ons do without it; `reclaim` frees it once no
    /// voice holds it. False if it had none.
    mutating func withdraw(_ region: Int, cell: UnsafePointer<RegionCell>) -> Bool {
        guard let entry = published[region] else { return false }
        cell.pointee.store(kind, address: 0)
        published[region] = nil
        withdrawn.append((region, entry.form, entry.owner))
        return true
    }

    /// Frees the withdrawn forms no voice holds any more (their owners go with them unless another
    /// program holds them); returns how many still wait for their voices.
    mutating func reclaim(_ cells: [UnsafeMutablePointer<RegionCell>]) -> Int {
        let kind = kind
        withdrawn.removeAll { entry in
            guard cells[entry.region].pointee.readers(kind) == 0 else { return false }
            entry.form.deinitialize(count: 1).deallocate()
            return true
        }
        return withdrawn.count
    }

    /// When the program goes, after its bank retired: no voice reads any form.
    mutating func freeAll() {
        for entry in published { entry?.form.deinitialize(count: 1).deallocate() }
        for entry in withdrawn { entry.form.deinitialize(count: 1).deallocate() }
        published = []
        withdrawn = []
    }
}

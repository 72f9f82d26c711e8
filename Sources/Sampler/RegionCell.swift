import Synchronization

/// What the render and the loading side share of one region, in raw memory: atomics only.
///
/// The render thread reports each note-on (`lastStrike`), so the loading side can build levels for
/// the regions really played and tell the least recently played ones; the loading side publishes
/// and withdraws the band-limited form (`levels`) and frees a withdrawn one only once no voice
/// holds it (`FormSlot`).
struct RegionCell: ~Copyable {
    let levels = FormSlot()
    /// The instrument's strike stamp (its frame clock + 1) at the last note-on on the region; 0: never.
    let lastStrike = Atomic<UInt64>(0)
}

/// One published form of a region and the voices holding it.
///
/// Safe reclamation: a voice counts itself in `readers` *before* it reads `address`, and out when it
/// stops; the loading side clears `address` and then waits for `readers` to reach 0 before it frees
/// the form. With all four steps sequentially consistent, a voice that read the old address counted
/// itself before the clearing, so the wait sees it (a voice that saw 0 counts itself out at once).
/// One form at a time: a slot is published again only after its withdrawn form was freed.
struct FormSlot: ~Copyable {
    /// The form's address (`PlaybackRegion`), 0 when none.
    let address = Atomic<Int>(0)
    /// Voices holding the form (plus, for an instant, note-ons that found none).
    let readers = Atomic<Int>(0)

    /// Render thread, at note-on: the published form, counted as held, or nil.
    @inline(__always)
    func acquire() -> PlaybackRegion? {
        readers.add(1, ordering: .sequentiallyConsistent)
        let current = address.load(ordering: .sequentiallyConsistent)
        guard current != 0, let form = UnsafePointer<PlaybackRegion>(bitPattern: current) else {
            readers.subtract(1, ordering: .relaxed)
            return nil
        }
        return form.pointee
    }

    /// Render thread: a voice that held the form stops reading it (its reads happen before the free).
    @inline(__always)
    func release() { readers.subtract(1, ordering: .releasing) }
}

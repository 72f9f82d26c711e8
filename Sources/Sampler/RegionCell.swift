import Synchronization

/// What the render and the loading side share of one region, in raw memory: atomics only.
///
/// The render thread reports each note-on (`lastStrike`), so the loading side can build levels for
/// the regions really played, prepare the struck ones not prepared yet and tell the least recently
/// played ones; the loading side publishes and withdraws the band-limited form (`levels`) and a
/// deferred waveform's region's frames (`plain`), and frees a withdrawn one only once no voice
/// holds it (`FormSlot`).
struct RegionCell: ~Copyable {
    let levels = FormSlot()
    /// A deferred waveform's region: its plain form once its frames were read (`RegionFrames`).
    let plain = FormSlot()
    /// The instrument's strike stamp (its frame clock + 1) at the last note-on on the region; 0: never.
    let lastStrike = Atomic<UInt64>(0)

    /// Loading side: publishes (an address) or withdraws (0) the form of `kind`.
    func store(_ kind: FormKind, address: Int) {
        switch kind {
        case .levels: levels.address.store(address, ordering: .sequentiallyConsistent)
        case .plain: plain.address.store(address, ordering: .sequentiallyConsistent)
        }
    }

    /// Loading side: the voices holding the form of `kind`.
    func readers(_ kind: FormKind) -> Int {
        switch kind {
        case .levels: levels.readers.load(ordering: .sequentiallyConsistent)
        case .plain: plain.readers.load(ordering: .sequentiallyConsistent)
        }
    }
}

/// The forms a region can be given by the loading side.
public enum FormKind: Sendable, Equatable {
    /// A deferred waveform's region's frames, read with the 4-point cubic (`RegionFrames`).
    case plain
    /// Its band-limited levels (`RegionLevels`).
    case levels
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

/// A published form a voice counts itself a reader of (`FormSlot.acquire`), to let go of when it
/// stops reading it. Plain data; render thread.
struct FormHold {
    let cell: UnsafePointer<RegionCell>
    let kind: FormKind

    @inline(__always)
    func release() {
        switch kind {
        case .levels: cell.pointee.levels.release()
        case .plain: cell.pointee.plain.release()
        }
    }
}

/// What the render and the loading side share of one program, in raw memory: when a part last
/// selected it (a program change, or a part back on its start program), so that the loading side
/// prepares its deferred regions at once, and how many notes on it found their region unprepared.
struct ProgramCell: ~Copyable {
    /// The instrument's stamp (frame clock + 1) at the last selection; 0: never selected.
    let selected = Atomic<UInt64>(0)
    /// Notes with a zone on a region of a deferred waveform that stayed silent: unprepared, and
    /// not prepared while it could wait (`PendingNotes`). Each note counted once.
    let silentNotes = Atomic<Int>(0)
}

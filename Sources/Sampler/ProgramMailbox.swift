import Synchronization

/// Hands program banks (any immutable object) from the control thread to the render thread and back without locks.
///
/// Two single-slot atomic mailboxes hold retained object addresses (0 = empty):
/// - `inbox`: the control thread deposits the next program (replacing one the render thread has
///   not picked up yet, which it then releases itself).
/// - `outbox`: the render thread deposits the program it retired once no voice reads it any more;
///   the control thread takes it out and releases it. The render thread retires only into an
///   empty outbox, so it never has to free anything.
///
/// @unchecked Sendable: its only state is the two atomic slots (raw memory, so not checkable).
final class ProgramMailbox<Object: AnyObject & Sendable>: @unchecked Sendable {
    /// `inbox` (0) and `outbox` (1), in memory of their own so the render thread can reach them
    /// through `renderEnd`, a plain pointer (calling the object would retain and release it).
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    /// The render thread's end.
    let renderEnd: RenderEnd

    init() {
        slots = .allocate(capacity: 2)
        (slots + 0).initialize(to: Atomic(0))
        (slots + 1).initialize(to: Atomic(0))
        renderEnd = RenderEnd(slots: slots)
    }

    /// Control thread: queues `program` (retained) for the render thread.
    func deposit(_ program: Object) {
        let address = Int(bitPattern: Unmanaged.passRetained(program).toOpaque())
        let replaced = slots[0].exchange(address, ordering: .acquiringAndReleasing)
        release(replaced)
    }

    /// What the render thread does with the mailbox: a view of the two slots. Valid while the
    /// mailbox lives.
    struct RenderEnd {
        fileprivate let slots: UnsafeMutablePointer<Atomic<Int>>

        /// Takes the queued program's address, if any, when the outbox has room for the program
        /// it will retire.
        @_noAllocation
        func takeIfRoomForGarbage() -> Int {
            guard slots[1].load(ordering: .acquiring) == 0 else { return 0 }
            return slots[0].exchange(0, ordering: .acquiringAndReleasing)
        }

        /// Is there room to hand back a retired program?
        var hasRoomForGarbage: Bool { @_noAllocation get { slots[1].load(ordering: .acquiring) == 0 } }

        /// Hands a retired program (retained address) back. Call only after `hasRoomForGarbage`
        /// was true; the control thread is the only one emptying the slot.
        @_noAllocation
        func retire(_ address: Int) { slots[1].store(address, ordering: .releasing) }
    }

    /// Render thread: `renderEnd.takeIfRoomForGarbage()`.
    func takeIfRoomForGarbage() -> Int { renderEnd.takeIfRoomForGarbage() }

    /// Render thread: `renderEnd.hasRoomForGarbage`.
    var hasRoomForGarbage: Bool { renderEnd.hasRoomForGarbage }

    /// Render thread: `renderEnd.retire`.
    func retire(_ address: Int) { renderEnd.retire(address) }

    /// Control thread: releases a retired program, if one is waiting. Returns true if it did.
    @discardableResult
    func collect() -> Bool {
        let address = slots[1].exchange(0, ordering: .acquiringAndReleasing)
        release(address)
        return address != 0
    }

    /// Releases a retained address (0 is ignored). Control thread or deinit only.
    func release(_ address: Int) {
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        Unmanaged<Object>.fromOpaque(pointer).release()
    }

    deinit {
        release(slots[0].load(ordering: .acquiring))
        release(slots[1].load(ordering: .acquiring))
        slots.deinitialize(count: 2)
        slots.deallocate()
    }
}

/// The control thread's end of a sampler's bank hand-over: what may be done with a
/// `SamplerInstrument` from another thread, as a `Sendable` object of its own (the instrument
/// itself belongs to the render thread). Any thread, one caller at a time (the control thread).
public final class SamplerBankInbox: Sendable {
    let mailbox = ProgramMailbox<ProgramBank>()

    init() {}

    /// Makes `bank` the instrument's sounds. Voices of the previous bank fade out (3 ms) and every
    /// part restarts on the new bank's starting program; the previous bank comes back through
    /// `collectGarbage()`.
    public func submit(_ bank: ProgramBank) {
        mailbox.deposit(bank)
        mailbox.collect()
    }

    /// One program on every channel and program number (`ProgramBank.single`).
    public func submit(_ program: SamplerProgram) { submit(ProgramBank.single(program)) }

    /// Releases a bank the render thread has finished with. Call it now and then (e.g. with each
    /// status update); returns true if a bank was released.
    @discardableResult
    public func collectGarbage() -> Bool { mailbox.collect() }
}

import Synchronization

/// Hands program banks (any immutable object) from the control thread to the render thread and back without locks.
///
/// Two single-slot atomic mailboxes hold retained object addresses (0 = empty):
/// - `inbox`: the control thread deposits the next program (replacing one the render thread has
///   not picked up yet, which it then releases itself).
/// - `outbox`: the render thread deposits the program it retired once no voice reads it any more;
///   the control thread takes it out and releases it. The render thread retires only into an
///   empty outbox, so it never has to free anything.
final class ProgramMailbox<Object: AnyObject>: @unchecked Sendable {
    private let inbox = Atomic<Int>(0)
    private let outbox = Atomic<Int>(0)

    /// Control thread: queues `program` (retained) for the render thread.
    func deposit(_ program: Object) {
        let address = Int(bitPattern: Unmanaged.passRetained(program).toOpaque())
        let replaced = inbox.exchange(address, ordering: .acquiringAndReleasing)
        release(replaced)
    }

    /// Render thread: takes the queued program's address, if any, when `outbox` has room for the
    /// program it will retire.
    func takeIfRoomForGarbage() -> Int {
        guard outbox.load(ordering: .acquiring) == 0 else { return 0 }
        return inbox.exchange(0, ordering: .acquiringAndReleasing)
    }

    /// Render thread: is there room to hand back a retired program?
    var hasRoomForGarbage: Bool { outbox.load(ordering: .acquiring) == 0 }

    /// Render thread: hands a retired program (retained address) back. Call only after
    /// `hasRoomForGarbage` was true; the control thread is the only one emptying the slot.
    func retire(_ address: Int) {
        outbox.store(address, ordering: .releasing)
    }

    /// Control thread: releases a retired program, if one is waiting. Returns true if it did.
    @discardableResult
    func collect() -> Bool {
        let address = outbox.exchange(0, ordering: .acquiringAndReleasing)
        release(address)
        return address != 0
    }

    /// Releases a retained address (0 is ignored). Control thread or deinit only.
    func release(_ address: Int) {
        guard address != 0, let pointer = UnsafeRawPointer(bitPattern: address) else { return }
        Unmanaged<Object>.fromOpaque(pointer).release()
    }

    deinit {
        release(inbox.load(ordering: .acquiring))
        release(outbox.load(ordering: .acquiring))
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

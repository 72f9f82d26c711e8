import Foundation

/// Detached threads of the live session's control side (the control socket, the song feeder)
/// with a 512 KiB stack instead of the default 8 MiB: after `play` locks memory with
/// `mlockall(MCL_FUTURE)`, every new thread's stack is resident and locked whole. These threads
/// parse short lines, format a status and sleep; they load nothing (no XML, no decoding).
enum SmallStackThread {
    static let stackBytes = 512 << 10

    static func detach(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = stackBytes
        thread.start()
    }
}

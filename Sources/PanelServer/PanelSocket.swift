import Foundation
import HummingbirdWebSocket
import PanelProtocol

/// One open page's WebSocket: `hello`, then `state` frames at the feed rate from its own loop (a
/// page that stops reading holds up only itself), while its messages are validated and applied.
struct PanelSocket {
    let backend: any PanelBackend
    let parameters: [PanelParameter]
    let byName: [String: PanelParameter]
    let frames: FrameCache
    let limits: ClientLimits
    /// Messages up to this size reach the validator (which refuses those over
    /// `PanelCommand.maxBytes` with an error frame); larger ones close the socket (1009).
    static let maxReadBytes = 4096

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        defer { limits.closeSocket() }
        try await outbound.write(.text(PanelFrames.hello(parameters: parameters)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [frames] in
                let period = Duration.nanoseconds(1_000_000_000 / PanelFrames.feedRate)
                while !Task.isCancelled {
                    try await outbound.write(.text(frames.frame(now: Self.now())))
                    try await Task.sleep(for: period)
                }
            }
            var client = PanelClient()
            for try await message in inbound.messages(maxSize: Self.maxReadBytes) {
                let bytes: [UInt8]
                switch message {
                case .text(let text): bytes = Array(text.utf8)
                case .binary(var buffer): bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
                }
                if let reply = client.receive(bytes, backend: backend, parameters: byName, now: Self.now()) {
                    try await outbound.write(.text(reply))
                }
            }
            group.cancelAll()
        }
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}

import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import PanelProtocol
import Synchronization

/// The web panel's server: one page and its WebSocket, on an event loop thread of its own and
/// Swift's task pool, never on the render thread. Every request passes the gate (Host, token,
/// Origin), the per-address request limit and the connection and socket bounds.
public final class PanelServer: Sendable {
    /// TCP connections open at once (pages, sockets, and whatever else knocks).
    public static let maxConnections = 64

    public let address: PanelAddress
    private let task: Mutex<Task<Void, any Error>?>
    private let group: MultiThreadedEventLoopGroup

    private init(address: PanelAddress, group: MultiThreadedEventLoopGroup) {
        self.address = address
        self.group = group
        task = Mutex(nil)
    }

    /// Starts serving and returns once the port is bound; throws with the reason when it cannot be.
    @inline(never)
    public static func start(address: PanelAddress, token: String?, backend: any PanelBackend) throws -> PanelServer {
        let gate = PanelGate(address: address, token: token)
        let limits = ClientLimits()
        let parameters = backend.parameters
        let socket = PanelSocket(backend: backend, parameters: parameters, byName: Dictionary(parameters.map { ($0.name, $0) }) { a, _ in a },
                                 frames: FrameCache(backend: backend, rate: PanelFrames.feedRate), limits: limits)
        let server = PanelServer(address: address, group: MultiThreadedEventLoopGroup(numberOfThreads: 1))
        var logger = Logger(label: "audiograph.panel")
        logger.logLevel = .critical
        let started = StartSignal()
        let app = Application(
            router: PanelRoutes.router(gate: gate, limits: limits),
            server: .http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: PanelSocket.maxReadBytes))) { request, channel, _ in
                let ip = channel.remoteAddress?.ipAddress ?? "unknown"
                let panel = PanelRequest(request)
                guard panel.path == "/ws", limits.allowRequest(from: ip, now: PanelSocket.now()), panel.admitSocket(gate) == .allow,
                      limits.openSocket() else { return .dontUpgrade }
                return .upgrade([:]) { inbound, outbound, _ in try await socket.run(inbound: inbound, outbound: outbound) }
            },
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "audiograph",
                                 availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
            onServerRunning: { _ in started.signal(nil) },
            eventLoopGroupProvider: .shared(server.group),
            logger: logger)
        server.task.withLock {
            $0 = Task {
                do { try await app.run() } catch { started.signal("\(error)") }
            }
        }
        if let failure = started.wait(seconds: 10) {
            server.stop()
            throw PanelError("panel: cannot listen on \(address): \(failure)")
        }
        return server
    }

    /// Closes the listener and every connection.
    public func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
        try? group.syncShutdownGracefully()
    }
}

/// Start-up's outcome handed from the server's task to the starting thread.
private final class StartSignal: Sendable {
    private let outcome = Mutex<String??>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    /// nil: listening; text: the error.
    func signal(_ failure: String?) {
        let first = outcome.withLock { value in
            guard value == nil else { return false }
            value = .some(failure)
            return true
        }
        if first { semaphore.signal() }
    }

    func wait(seconds: Int) -> String? {
        guard semaphore.wait(timeout: .now() + .seconds(seconds)) == .success else { return "no answer within \(seconds) s" }
        return outcome.withLock { $0 ?? nil }
    }
}

extension PanelServer: PanelServing {
    /// Makes this server the one `play --panel` starts (called by the `audiograph` executable).
    public static func installAsPanel() {
        PanelHook.install { address, token, backend in try PanelServer.start(address: address, token: token, backend: backend) }
    }
}

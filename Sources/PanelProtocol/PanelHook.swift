import Synchronization

/// A running web panel, as `play` sees it.
public protocol PanelServing: Sendable {
    func stop()
}

/// How `play` starts the web panel without linking its server: the `audiograph` executable
/// installs the starter (PanelServer, with Hummingbird); the unit tests, the fuzz and the
/// ThreadSanitizer builds link AudioGraphApp without it, and `--panel` then says it is not built in.
public enum PanelHook {
    public typealias Starter = @Sendable (PanelAddress, _ token: String?, any PanelBackend) throws -> any PanelServing

    private static let starter = Mutex<Starter?>(nil)

    public static func install(_ start: @escaping Starter) { starter.withLock { $0 = start } }

    public static func start(_ address: PanelAddress, token: String?, backend: any PanelBackend) throws -> any PanelServing {
        guard let start = starter.withLock({ $0 }) else { throw PanelError("this build of audiograph has no web panel") }
        return try start(address, token, backend)
    }
}

import Foundation
import LiveControl
import PanelProtocol

/// Starts `play`'s web panel when asked (`--panel`, or the instrument file's `"panel"`): loopback
/// addresses without a token, any other with the user's token (made at first start, printed once).
/// No panel, no listener.
enum PanelLauncher {
    /// The running panel and what `status` shows of it.
    struct Started {
        let server: any PanelServing
        let description: String
    }

    static func start(_ spec: String, backend: ServicePanelBackend, log: (String) -> Void) throws -> Started {
        let address: PanelAddress
        do { address = try PanelAddress(parsing: spec) } catch { throw InstrumentError("--panel: \(error)") }
        var token: String?
        if address.requiresToken {
            let store = PanelTokenStore(environment: ProcessInfo.processInfo.environment)
            let stored: (token: String, created: Bool)
            do { stored = try store.loadOrCreate() } catch { throw InstrumentError("\(error)") }
            token = stored.token
            if stored.created { log("panel token made and kept in \(store.path) (0600): \(stored.token)") }
        }
        let server: any PanelServing
        do { server = try PanelHook.start(address, token: token, backend: backend) } catch { throw InstrumentError("\(error)") }
        let url = "http://\(address)/"
        log("panel: \(url)" + (token == nil ? " (this machine only)" : "?token=… (the token is required; `audiograph status` shows it)"))
        return Started(server: server, description: url + (token.map { "?token=\($0)" } ?? ""))
    }
}

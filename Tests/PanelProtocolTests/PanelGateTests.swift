import Foundation
import PanelProtocol
import Testing

@Suite struct PanelGateTests {
    @Test func parsesAddresses() throws {
        #expect(try PanelAddress(parsing: "8080") == PanelAddress(host: "127.0.0.1", port: 8080))
        #expect(try PanelAddress(parsing: "0.0.0.0:9000") == PanelAddress(host: "0.0.0.0", port: 9000))
        #expect(try PanelAddress(parsing: "[::1]:80") == PanelAddress(host: "::1", port: 80))
        #expect(try PanelAddress(parsing: "localhost:8080").isLoopback)
        #expect(try PanelAddress(parsing: "127.0.0.2:8080").isLoopback)
        #expect(try !PanelAddress(parsing: "192.168.1.20:8080").isLoopback)
        #expect(try PanelAddress(parsing: "0.0.0.0:8080").requiresToken)
        for bad in ["", "0", "65536", "host.example:80", "1.2.3.4:", "::1:80", "[::1]", "8080x"] {
            #expect(throws: PanelError.self, "\(bad)") { try PanelAddress(parsing: bad) }
        }
    }

    @Test func loopbackPanelRefusesForeignHostNames() {
        let gate = PanelGate(address: PanelAddress(host: "127.0.0.1", port: 8080), token: nil)
        #expect(gate.admitPage(host: "127.0.0.1:8080", token: nil) == .allow)
        #expect(gate.admitPage(host: "localhost:8080", token: nil) == .allow)
        #expect(gate.admitPage(host: "[::1]:8080", token: nil) == .allow)
        // DNS rebinding: a foreign name that resolves to 127.0.0.1.
        guard case .refuse(403, _) = gate.admitPage(host: "evil.example:8080", token: nil) else { Issue.record("rebinding allowed"); return }
        guard case .refuse(400, _) = gate.admitPage(host: nil, token: nil) else { Issue.record("no Host allowed"); return }
    }

    @Test func otherAddressesNeedTheToken() {
        let token = PanelToken.generate()
        let gate = PanelGate(address: PanelAddress(host: "0.0.0.0", port: 8080), token: token)
        #expect(gate.admitPage(host: "192.168.1.20:8080", token: token) == .allow)
        for wrong in [nil, "", String(token.dropLast()), String(token.reversed()), token + "0"] {
            guard case .refuse(401, _) = gate.admitPage(host: "192.168.1.20:8080", token: wrong) else { Issue.record("token \(wrong ?? "nil")"); return }
        }
    }

    @Test func socketsMustComeFromThePage() {
        let gate = PanelGate(address: PanelAddress(host: "127.0.0.1", port: 8080), token: nil)
        #expect(gate.admitSocket(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", token: nil) == .allow)
        for origin in [nil, "http://evil.example", "http://127.0.0.1:9090", "null", "https://127.0.0.1:8080"] {
            guard case .refuse(403, _) = gate.admitSocket(host: "127.0.0.1:8080", origin: origin, token: nil) else {
                Issue.record("origin \(origin ?? "nil") allowed")
                return
            }
        }
    }

    @Test func tokenIsStoredUserOnlyAndReused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("panel-token-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = PanelTokenStore(path: "\(dir)/audiograph/panel-token")
        let first = try store.loadOrCreate()
        #expect(first.created && first.token.count == 32)
        var info = stat()
        #expect(stat(store.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat("\(dir)/audiograph", &info) == 0 && info.st_mode & 0o777 == 0o700)
        let second = try store.loadOrCreate()
        #expect(!second.created && second.token == first.token)
        chmod(store.path, 0o644)  // readable by others: not trusted, replaced
        let third = try store.loadOrCreate()
        #expect(third.created && third.token != first.token)
        #expect(stat(store.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func pitchNames() {
        #expect(PitchName(hz: 440) == PitchName(hz: 440))
        #expect(PitchName(hz: 440)?.name == "A4")
        #expect(PitchName(hz: 261.63)?.name == "C4")
        #expect(abs((PitchName(hz: 440 * pow(2, 0.3 / 12))?.cents ?? 0) - 30) < 0.1)
        #expect(PitchName(hz: 0) == nil && PitchName(hz: .nan) == nil)
    }

    /// The page fetches nothing from elsewhere and sends only the three message types.
    @Test func pageIsSelfContained() {
        let html = PanelPage.html
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src=\""))
        #expect(html.contains("type: \"set\"") && html.contains("type: \"note\"") && html.contains("type: \"panic\""))
    }
}

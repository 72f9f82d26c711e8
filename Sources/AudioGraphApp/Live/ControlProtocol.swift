import Engine
import LiveControl

/// The control socket's text protocol, one request line → one reply: `set a=b c=d`, `get name`,
/// `status`, `status --json`. Replies start with "ok" or "error: ". Everything goes through
/// `ControlService`, the path every front end takes into the instrument.
public enum ControlProtocol {
    public static func answer(_ request: String, service: ControlService) -> String {
        let words = request.split(separator: " ").map(String.init)
        switch words.first {
        case "set":
            guard words.count > 1 else { return "error: set needs name=value" }
            do { try service.set(assignments: Array(words.dropFirst())) } catch { return "error: \(error)" }
            return "ok"
        case "get":
            guard words.count == 2, let value = try? service.get(words[1]) else {
                return "error: unknown parameter '\(ParameterError.excerpt(words.dropFirst().joined(separator: " ")))'"
            }
            return "ok \(words[1]) = \(value)"
        case "status":
            let status = service.status()
            return words.contains("--json") ? "ok\n" + status.json() : "ok " + status.line + (status.panel.map { "\npanel: \($0)" } ?? "")
        default:
            return "error: unknown request '\(ParameterError.excerpt(request))' (set, get, status)"
        }
    }
}

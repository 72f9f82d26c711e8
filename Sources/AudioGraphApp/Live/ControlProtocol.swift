import Engine
import LiveControl

/// The control socket's text protocol, one request line → one reply: `set a=b c=d`, `get name`,
/// `status`, `status --json`, `note CHANNEL KEY VELOCITY` (channel 1–16, velocity 0 = note-off: a
/// note where there is no ALSA sequencer, as on a desktop with only PipeWire; tests time it).
/// Replies start with "ok" or "error: ". Everything goes through `ControlService`, the path every
/// front end takes into the instrument.
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
            return words.contains("--json") ? "ok\n" + status.json() : "ok " + status.text
        case "note":
            let numbers = words.dropFirst().compactMap { Int($0) }
            guard words.count == 4, numbers.count == 3, (1...16).contains(numbers[0]), (0...127).contains(numbers[1]),
                  (0...127).contains(numbers[2])
            else { return "error: note needs CHANNEL (1–16) KEY (0–127) VELOCITY (0–127, 0 = off)" }
            let velocity = numbers[2]
            do {
                try service.note(channel: UInt8(numbers[0] - 1), note: UInt8(numbers[1]), velocity: velocity == 0 ? nil : UInt8(velocity))
            } catch { return "error: \(error)" }
            return "ok"
        default:
            return "error: unknown request '\(ParameterError.excerpt(request))' (set, get, status, note)"
        }
    }
}

/// What the panel needs of a running instrument. The app implements it with its control service,
/// the one path every front end takes into the engine: the same parameter table and status
/// snapshot as the control socket, notes through the same MIDI path as `audiograph note`.
/// Called from the server's threads, never from the render thread; must not block on it.
public protocol PanelBackend: Sendable {
    /// Every parameter the page may set, in the order the engine lists them.
    var parameters: [PanelParameter] { get }
    /// Sets a parameter (already validated against `parameters`); throws the instrument's refusal.
    func set(_ name: String, value: Double) throws(PanelError)
    /// A note on (velocity 1–127) or off (velocity 0) on channel 0–15.
    func note(channel: Int, note: Int, velocity: Int) throws(PanelError)
    /// Sustain off, all notes off, all sound off on every channel.
    func panic() throws(PanelError)
    /// What the page shows now.
    func state() -> PanelState
}

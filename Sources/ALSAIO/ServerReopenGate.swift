/// Decides, at each attempt to (re)open a sound server's PCM (every `attemptSeconds`), whether to
/// pay for opening the plugin or only to ask the server's socket (`SoundServerSocket`): while the
/// server is away the socket is silent and nothing else is done, so waiting costs no more CPU than
/// idling; the attempt after the socket answers again opens the plugin. The probe is trusted only
/// once it answered at a moment the plugin opened (its socket is this plugin's server); until
/// then a silent probe still lets the plugin be opened every `untrustedOpenSeconds` (a server the
/// probe cannot see, configured elsewhere, is still found), and if the plugin ever opens while the
/// probe is silent, the probe is wrong and no longer consulted. A socket that answers while opening
/// keeps failing (a server still starting, or refusing us) is retried with back-off.
/// Plain value; control thread. Times are CLOCK_MONOTONIC nanoseconds.
public struct ServerReopenGate: Sendable, Equatable {
    /// How often to ask: the most a return is noticed late.
    public static let attemptSeconds = 0.1
    public static let untrustedOpenSeconds = 4.0

    private var trusted = false
    private var ignored = false
    private var lastOpen: UInt64?
    private var failures = ReopenBackoff(initialSeconds: attemptSeconds, maximumSeconds: 1)
    private var nextOpen: UInt64 = 0

    public init() {}

    /// Whether to open the plugin now, given what the socket said.
    public mutating func shouldOpen(now: UInt64, probe: SoundServerSocket.Probe) -> Bool {
        if probe == .silent && !ignored {
            failures.reset()
            nextOpen = 0  // the first attempt after it answers opens
            guard let lastOpen, trusted || now &- lastOpen < UInt64(Self.untrustedOpenSeconds * 1e9) else { return true }
            return false
        }
        return now >= nextOpen
    }

    /// The plugin opened, with the socket as `probe` said.
    public mutating func opened(now: UInt64, probe: SoundServerSocket.Probe) {
        lastOpen = now
        switch probe {
        case .answers: trusted = true
        case .silent:
            trusted = false
            ignored = true
        case .unknown: break
        }
        failures.reset()
        nextOpen = 0
    }

    /// Opening the plugin failed.
    public mutating func failed(now: UInt64, probe: SoundServerSocket.Probe) {
        lastOpen = now
        if probe != .silent || ignored { nextOpen = now + UInt64(failures.nextDelaySeconds() * 1e9) }
    }
}

import ALSAIO

/// How `play` runs: devices, period, MIDI connections. Filled from the command line.
struct LiveOptions: Sendable {
    /// ALSA playback device, or `paced` for the clock-paced null device (no sound card needed).
    var device = "default"
    /// ALSA capture device for the mic bus, `none`, or nil with `inputFile`.
    var inputDevice = "none"
    /// A file played in a loop into the mic bus instead of a capture device.
    var inputFile: String?
    var rate = 48000
    var periodFrames = 256
    var periods = 3
    var connect: [String] = []
    var autoconnect: AutoconnectPolicy?
    /// SCHED_FIFO priority for the render thread (nil: don't ask).
    var realtimePriority: Int32? = 70
    /// Stop after this many seconds (tests, soak runs); nil runs until SIGINT/SIGTERM.
    var durationSeconds: Double?
    /// Standard MIDI file to play into the instrument in real time (the demo).
    var songPath: String?
    var statusInterval = 0.25
    /// Play through a native JACK client instead of an ALSA PCM.
    var driver = LiveDriverKind.alsa
    /// With the JACK driver: connect the outputs to the server's physical playback ports.
    var jackConnect = false
    /// `--panel [ADDR:]PORT` or the instrument file's `"panel"`: serve the web panel there.
    var panel: String?
}

/// `--driver`: how `play` reaches the speakers.
enum LiveDriverKind: String, Sendable, CaseIterable {
    /// An ALSA PCM (`--device`: a card, or the pipewire/pulse plugins), pushed by the render thread.
    case alsa
    /// A native JACK client (jackd, or PipeWire's JACK with pw-jack), called by JACK's process thread.
    case jack
}

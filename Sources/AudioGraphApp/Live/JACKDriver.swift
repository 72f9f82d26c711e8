import ALSAIO
import Foundation
import JACKIO
import LiveControl
import LiveLoop

/// What the control loop asks of a driver while `play` runs, whichever it is (the ALSA push loop,
/// the JACK callback). Control thread.
protocol LiveDriver: AnyObject {
    /// Every few milliseconds: handles a lost device or server. False when playing cannot go on.
    func service() -> Bool
    /// Stops rendering and lets go of the device.
    func stop()
}

extension PushDriver: LiveDriver {}

/// The JACK callback driver as the control thread runs it: the client renders through
/// `JACKRenderTarget` on JACK's thread; `service` publishes JACK's xruns and buffer-size changes,
/// and when the server shuts down (killed, restarted, the client thrown out) it closes the client,
/// renders on without a device (`OutageRecovery`: MIDI still applied, held notes released on
/// time), tries a new client twice a second, and plays on when the server is back —
/// reconnecting the ports with `--jack-connect`. A server back at another sample rate (or a rate
/// change announced by the server) needs an engine prepared for that rate: `service` then returns
/// false with `newSampleRate` set, and `play` starts the session again at that rate.
final class JACKDriver: LiveDriver {
    let target: JACKRenderTarget
    private(set) var client: JACKClient?
    private let options: JACKClientOptions
    private let connect: Bool
    private let status: StatusSource
    private var outage: OutageRecovery?
    private var xrunsOfEarlierClients = 0
    private var reportedBufferSize: Int
    /// Set when the server's rate is no longer the engine's: the session must be prepared again.
    private(set) var newSampleRate: Int?

    init(client: JACKClient, target: JACKRenderTarget, connect: Bool, status: StatusSource) {
        self.client = client
        self.target = target
        options = client.options
        self.connect = connect
        self.status = status
        reportedBufferSize = client.bufferSize
    }

    /// Opens a client as `options` say; waits for a server with back-off (100 ms doubling to 0.5 s),
    /// saying so, when `wait` and none runs. nil when `stop` came first.
    static func open(_ options: JACKClientOptions, wait: Bool, stop: StopSignal, progress: (String) -> Void) throws -> JACKClient? {
        var backoff = LiveDevices.serverBackoff
        var lastError = ""
        while !stop.isRequested {
            do {
                let client = try JACKClient(options)
                if backoff.attempts > 0 { LiveLog.line("JACK server is here") }
                return client
            } catch {
                guard wait, error.serverAbsent else { throw InstrumentError("\(error)") }
                let delay = backoff.nextDelaySeconds()
                let line = "waiting for a JACK server (attempt \(backoff.attempts), next in \(delay) s)"
                if "\(error)" != lastError {
                    lastError = "\(error)"
                    LiveLog.line("\(lastError); \(line)")
                }
                progress(line)
                let until = MonotonicClock.nanoseconds() + UInt64(delay * 1e9)
                while MonotonicClock.nanoseconds() < until, !stop.isRequested { usleep(10_000) }
            }
        }
        return nil
    }

    /// The client as `status` and the log describe it.
    static func describe(_ client: JACKClient) -> String {
        let frames = client.bufferSize, rate = client.sampleRate
        let milliseconds = Double(frames) * 1000 / Double(max(rate, 1))
        return "JACK client \(client.name): \(rate) Hz, buffer \(frames) frames (\(String(format: "%.2f", milliseconds)) ms), "
            + "output latency \(client.outputLatencyFrames) frames"
    }

    /// Starts the process callback and connects the ports.
    func start() throws {
        guard let client else { return }
        target.restart()
        try client.activate(target.jackRenderer)
        if connect {
            connectPorts(client)
            LiveLog.line(Self.describe(client))  // the latency now includes the ports connected to
        }
        status.update { $0.playback = Self.describe(client) }
    }

    func service() -> Bool {
        if let client {
            let notifications = client.notifications
            let xruns = xrunsOfEarlierClients + notifications.xruns.load(ordering: .relaxed)
            target.renderer.stats.xruns.store(xruns, ordering: .relaxed)
            let frames = notifications.bufferSize.load(ordering: .relaxed)
            if frames != reportedBufferSize {
                LiveLog.line("JACK buffer size: \(reportedBufferSize) → \(frames) frames")
                reportedBufferSize = frames
                status.update { $0.playback = Self.describe(client) }
            }
            let rate = notifications.sampleRate.load(ordering: .relaxed)
            if rate != Int(target.renderer.sampleRate) {
                LiveLog.line("JACK's sample rate is now \(rate) Hz (the engine runs at \(Int(target.renderer.sampleRate)) Hz): preparing it again")
                newSampleRate = rate
                return false
            }
            guard notifications.shutDown.load(ordering: .acquiring) else { return true }
            LiveLog.line("JACK server gone (\(notifications.shutdownReason)): reconnecting with back-off; MIDI is still applied meanwhile")
            xrunsOfEarlierClients = xruns
            client.close()
            self.client = nil
            target.renderer.stats.deviceLosses.wrappingAdd(1, ordering: .relaxed)
            outage = OutageRecovery(renderer: target.renderer, now: MonotonicClock.nanoseconds(), backoff: LiveDevices.serverBackoff)
        }
        guard var recovery = outage else { return true }
        let reopened = recovery.service(now: MonotonicClock.nanoseconds()) { [options] in try? JACKClient(options) }
        outage = recovery
        guard let reopened else { return true }
        outage = nil
        client = reopened
        reportedBufferSize = reopened.bufferSize
        target.renderer.stats.reopens.wrappingAdd(1, ordering: .relaxed)
        if reopened.sampleRate != Int(target.renderer.sampleRate) {
            LiveLog.line("JACK server back at \(reopened.sampleRate) Hz (the engine runs at \(Int(target.renderer.sampleRate)) Hz): preparing it again")
            newSampleRate = reopened.sampleRate
            return false
        }
        do {
            try start()
            LiveLog.line("JACK server back: reconnected as \(reopened.name)")
            return true
        } catch {
            LiveLog.line("JACK server back, but the client could not start: \(error)")
            return false
        }
    }

    func stop() {
        client?.deactivate()
        client?.close()
        client = nil
    }

    private func connectPorts(_ client: JACKClient) {
        let playback = client.physicalPlaybackPorts()
        guard playback.count >= 1 else {
            LiveLog.line("--jack-connect: the JACK server has no physical playback ports")
            return
        }
        let destinations = playback.count >= 2 ? Array(playback.prefix(2)) : [playback[0], playback[0]]
        let failures = client.connectOutputs(to: destinations)
        for failure in failures { LiveLog.line("--jack-connect: \(failure)") }
        if failures.isEmpty { LiveLog.line("connected \(client.outputPortNames.joined(separator: ", ")) to \(destinations.joined(separator: ", "))") }
    }
}

extension LiveSession {
    /// A JACK client for `play --driver jack` (ports in_L/in_R with `--input jack`); waits for a
    /// server when `wait`. nil when SIGINT/SIGTERM came first.
    func openJACK(wait: Bool) throws -> JACKClient? {
        stop.install()
        let clientOptions = JACKClientOptions(name: "AudioGraph", input: options.inputDevice == "jack")
        return try JACKDriver.open(clientOptions, wait: wait, stop: stop) { [notifier] line in notifier?.send("STATUS=\(line)") }
    }
}

import ALSAIO
import AudioFiles
import Foundation
import LiveLoop

/// The devices `play` runs on, opened as `LiveOptions` says: the playback device (or the clock-paced
/// null device), waited for with back-off when it is not there yet; the mic/line input (a capture
/// device or a looped file); the playback device again after it was lost. Control thread.
struct LiveDevices {
    let options: LiveOptions
    /// Set when the playback device leads to PipeWire or PulseAudio.
    let serverGate: ServerOpenGate?

    init(options: LiveOptions) {
        self.options = options
        serverGate = options.driver == .alsa && options.device != "paced" ? ServerOpenGate(device: options.device) : nil
    }

    /// A playback device as opened, with what it negotiated (the engine runs at that rate and period).
    struct OpenedOutput {
        var device: PlaybackDevice
        var description: String
        var rate: Int
        var period: Int
        /// Where the device goes, for `status` (`PCMRoute.audioServerDescription`).
        var audioServer: String
    }

    /// Opens the playback device, so the caller can fall back to an offline render when there is no sound card.
    func openOutput() throws -> OpenedOutput {
        if options.device == "paced" {
            let device = PlaybackDevice.paced(PacedNullDevice(sampleRateHz: options.rate, periodFrames: options.periodFrames,
                                                              bufferPeriods: options.periods))
            return OpenedOutput(device: device, description: device.description, rate: options.rate, period: options.periodFrames,
                                audioServer: "none (paced null device)")
        }
        do {
            let device = try PCMDevice(playbackRequest(rate: options.rate, period: options.periodFrames))
            let c = device.configuration, playback = PlaybackDevice.alsa(device)
            return OpenedOutput(device: playback, description: playback.description, rate: c.sampleRateHz, period: c.periodFrames,
                                audioServer: c.route.audioServerDescription)
        } catch {
            throw InstrumentError("cannot open playback device '\(options.device)': \(error)")
        }
    }

    /// `play` started before its device exists (a USB interface plugged in after boot, a sound
    /// server not started yet): retries `openOutput` with back-off (`reopenBackoff`; for a sound
    /// server, the plugin opened only once its socket answers), logging each new error and telling
    /// `progress` each wait, until the device opens; nil when `stop` came first.
    func waitForOutput(stop: StopSignal, progress: (String) -> Void) -> OpenedOutput? {
        var backoff = reopenBackoff
        var failures = 0
        var lastError = ""
        while !stop.isRequested {
            var delay = ServerReopenGate.attemptSeconds  // a sound server's socket is asked at this pace
            do {
                if let opened = try attempt(openOutput) {
                    if failures > 0 { LiveLog.line("playback device '\(options.device)' is here") }
                    return opened
                }
            } catch {
                failures += 1
                var next = "its server's socket asked every \(delay) s"
                if serverGate == nil {
                    delay = backoff.nextDelaySeconds()
                    next = "next in \(delay) s"
                }
                let line = "waiting for playback device '\(options.device)' (attempt \(failures), \(next))"
                if "\(error)" != lastError {
                    lastError = "\(error)"
                    LiveLog.line("\(lastError); \(line)")
                }
                progress(line)
            }
            let until = Date(timeIntervalSinceNow: delay)
            while Date() < until, !stop.isRequested { usleep(10_000) }
        }
        return nil
    }

    /// The playback device again, at the rate and period the engine runs at, after it was lost;
    /// nil while it cannot be opened (the paced device is never lost).
    func reopenOutput(rate: Int, period: Int) -> PlaybackDevice? {
        guard options.device != "paced" else { return nil }
        guard let device = try? attempt({ try PCMDevice(playbackRequest(rate: rate, period: period)) }) else { return nil }
        return .alsa(device)
    }

    /// `open` now, or nil when the device leads to a sound server whose socket is silent (only the
    /// socket was asked).
    private func attempt<Opened>(_ open: () throws -> Opened) throws -> Opened? {
        guard let serverGate else { return try open() }
        return try serverGate.attempt(open)
    }

    /// The mic/line input and its description, or nil when there is none.
    func openInput(rate: Int, period: Int) throws -> (source: CaptureSource, description: String)? {
        if let file = options.inputFile {
            let audio = try AudioFileReader.read(path: file, convertingTo: Double(rate), wholeFileLoops: true)
            let input = LoopedInput(left: audio.channels[0], right: audio.channels.count > 1 ? audio.channels[1] : nil)
            return (.looped(input), "file \(file) (looped), \(audio.channels.count) channel(s)")
        }
        guard options.inputDevice != "none" else { return nil }
        do {
            let device = try PCMDevice(PCMRequest(deviceName: options.inputDevice, direction: .capture, sampleRateHz: rate,
                                                  channels: 2, periodFrames: period, periodCount: options.periods))
            return (.alsa(device), device.configuration.description)
        } catch {
            throw InstrumentError("cannot open capture device '\(options.inputDevice)': \(error)")
        }
    }

    private func playbackRequest(rate: Int, period: Int) -> PCMRequest {
        var request = PCMRequest(deviceName: options.device, direction: .playback, sampleRateHz: rate, channels: 2,
                                 periodFrames: period, periodCount: options.periods)
        // Below the render thread, which fills the buffer the plugin's thread carries to the server.
        request.pluginThreadPriority = options.realtimePriority.map { max($0 - 5, 1) }
        return request
    }
}

/// Which way audio flows through a PCM device.
public enum PCMDirection: String, Sendable, Equatable {
    case playback
    case capture
}

/// Interleaved sample formats we can convert our planar Float audio to and from,
/// in order of preference (FLOAT_LE needs no conversion).
public enum PCMSampleFormat: String, Sendable, Equatable, CaseIterable {
    case float32LE = "FLOAT_LE"
    case signed32LE = "S32_LE"
    case signed16LE = "S16_LE"

    public var bytesPerSample: Int {
        switch self {
        case .float32LE, .signed32LE: return 4
        case .signed16LE: return 2
        }
    }
}

/// What the caller asks ALSA for. ALSA may grant something nearby: read the
/// `PCMConfiguration` the device reports after opening.
public struct PCMRequest: Sendable, Equatable {
    public var deviceName: String
    public var direction: PCMDirection
    public var sampleRateHz: Int
    /// Channels wanted: 2 for our stereo bus; capture may come back as 1 (mono source).
    public var channels: Int
    /// Frames per period (one wake-up of the render thread).
    public var periodFrames: Int
    /// Periods in the ring buffer; buffer latency = periodFrames × periodCount / rate.
    public var periodCount: Int
    /// Formats to try, in order.
    public var formatPreference: [PCMSampleFormat]
    /// SCHED_FIFO priority for the threads a server plugin starts in our process while opening
    /// (`RealtimeThread.whileScheduled`); nil: they get the opening thread's normal scheduling.
    public var pluginThreadPriority: Int32? = nil

    public init(
        deviceName: String, direction: PCMDirection, sampleRateHz: Int = 48_000, channels: Int = 2,
        periodFrames: Int = 256, periodCount: Int = 3,
        formatPreference: [PCMSampleFormat] = PCMSampleFormat.allCases
    ) {
        self.deviceName = deviceName
        self.direction = direction
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.periodFrames = periodFrames
        self.periodCount = periodCount
        self.formatPreference = formatPreference
    }
}

/// What ALSA actually negotiated for an open device.
public struct PCMConfiguration: Sendable, Equatable, CustomStringConvertible {
    public var deviceName: String
    public var direction: PCMDirection
    public var sampleRateHz: Int
    public var channels: Int
    public var format: PCMSampleFormat
    public var periodFrames: Int
    public var bufferFrames: Int
    /// What was asked: frames per period and periods per buffer.
    public var requestedPeriodFrames: Int
    public var requestedPeriodCount: Int
    /// Where the device name leads (a sound server's plugin, or `hw`, …).
    public var route: PCMRoute

    public init(
        deviceName: String, direction: PCMDirection, sampleRateHz: Int, channels: Int,
        format: PCMSampleFormat, periodFrames: Int, bufferFrames: Int,
        requestedPeriodFrames: Int? = nil, requestedPeriodCount: Int? = nil, route: PCMRoute = .undefined
    ) {
        self.deviceName = deviceName
        self.direction = direction
        self.sampleRateHz = sampleRateHz
        self.channels = channels
        self.format = format
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.requestedPeriodFrames = requestedPeriodFrames ?? periodFrames
        self.requestedPeriodCount = requestedPeriodCount ?? bufferFrames / max(periodFrames, 1)
        self.route = route
    }

    /// What was asked against what was granted, e.g. "asked 64×3, got 64×3 from the pipewire
    /// plugin" (a sound server's plugin may grant its own period; everything is sized from it).
    public var grant: String {
        let periods = bufferFrames % max(periodFrames, 1) == 0
            ? "\(bufferFrames / max(periodFrames, 1))" : "\(Double(bufferFrames) / Double(max(periodFrames, 1)))"
        let source: String
        switch route {
        case .pipewire, .pulse, .jack: source = "the \(route.pluginName) plugin"
        case .other(let type): source = "ALSA (\(type))"
        case .undefined: source = "ALSA"
        }
        return "asked \(requestedPeriodFrames)×\(requestedPeriodCount), got \(periodFrames)×\(periods) from \(source)"
    }

    /// Duration of one period in milliseconds.
    public var periodMilliseconds: Double { Double(periodFrames) * 1000 / Double(max(sampleRateHz, 1)) }
    /// Duration of the whole ring buffer (the output latency the buffer adds) in milliseconds.
    public var bufferMilliseconds: Double { Double(bufferFrames) * 1000 / Double(max(sampleRateHz, 1)) }

    /// One line for logs and `audiograph status`, e.g.
    /// `hw:Loopback,0,0 playback: 48000 Hz, 2 ch, FLOAT_LE, period 256 frames (5.33 ms), buffer 768 frames (16.00 ms)`.
    public var description: String {
        "\(deviceName) \(direction.rawValue): \(sampleRateHz) Hz, \(channels) ch, \(format.rawValue), "
            + "period \(periodFrames) frames (\(formatMilliseconds(periodMilliseconds)) ms), "
            + "buffer \(bufferFrames) frames (\(formatMilliseconds(bufferMilliseconds)) ms)"
    }
}

/// Two decimals without Foundation.
func formatMilliseconds(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

/// A PCM device name as ALSA's hint list presents it (`aplay -L`).
public struct PCMDeviceInfo: Sendable, Equatable {
    /// The name to pass to `PCMDevice` (`default`, `hw:CARD=Loopback,DEV=0`, `null`, …).
    public var name: String
    /// ALSA's human description, lines joined with " / ".
    public var description: String
    public var supportsPlayback: Bool
    public var supportsCapture: Bool
}

/// The outcome of one `write`/`read` on the render thread. Plain value: no allocation.
public enum PCMTransferStatus: Sendable, Equatable {
    /// All frames were transferred.
    case complete
    /// An underrun/overrun (or suspend) happened and was recovered; the frames were still transferred.
    case recovered
    /// The device is gone or unusable (`-ENODEV`, `-EBADFD`, …): close it and reopen with back-off.
    /// `code` is the negative errno.
    case deviceLost(code: Int32)
}

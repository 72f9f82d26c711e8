import CALSA

/// Negotiates hw and sw parameters for a freshly opened PCM. Control thread.
enum PCMHardwareSetup {
    static func configure(_ pcm: OpaquePointer, _ request: PCMRequest) throws(ALSAError) -> PCMConfiguration {
        try withParameters("snd_pcm_hw_params_malloc", snd_pcm_hw_params_malloc, free: snd_pcm_hw_params_free) { hw throws(ALSAError) in
            try configureHardware(pcm, request, hw)
        }
    }

    private static func configureHardware(_ pcm: OpaquePointer, _ request: PCMRequest, _ hw: OpaquePointer) throws(ALSAError) -> PCMConfiguration {
        let device = "\"\(request.deviceName)\""
        try alsaCheck(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any(\(device))")
        try alsaCheck(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED),
            "interleaved access on \(device)")

        guard let format = request.formatPreference.first(where: { snd_pcm_hw_params_test_format(pcm, hw, alsaFormat($0)) == 0 })
        else {
            throw ALSAError(
                operation: "choosing a sample format for \(device)", code: -EINVAL,
                detail: "none of " + request.formatPreference.map(\.rawValue).joined(separator: ", ") + " is supported")
        }
        try alsaCheck(snd_pcm_hw_params_set_format(pcm, hw, alsaFormat(format)), "format \(format.rawValue) on \(device)")

        var channels = UInt32(clamping: max(request.channels, 1))
        try alsaCheck(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "\(request.channels) channels on \(device)")

        var direction: Int32 = 0
        var rate = UInt32(clamping: request.sampleRateHz)
        try alsaCheck(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "rate \(request.sampleRateHz) Hz on \(device)")

        var period = snd_pcm_uframes_t(max(request.periodFrames, 1))
        try alsaCheck(
            snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &direction),
            "period of \(request.periodFrames) frames on \(device)")
        var periods = UInt32(clamping: max(request.periodCount, 2))
        if snd_pcm_hw_params_set_periods_near(pcm, hw, &periods, &direction) < 0 {
            // Some plugins constrain the buffer, not the period count: ask for the same total.
            var buffer = period * snd_pcm_uframes_t(periods)
            try alsaCheck(
                snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer),
                "buffer of \(buffer) frames on \(device)")
        }
        try alsaCheck(snd_pcm_hw_params(pcm, hw), "applying hw params to \(device)")

        var grantedPeriod: snd_pcm_uframes_t = 0
        var grantedBuffer: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size(hw, &grantedPeriod, &direction)
        snd_pcm_hw_params_get_buffer_size(hw, &grantedBuffer)

        try configureSoftware(pcm, request, period: grantedPeriod, buffer: grantedBuffer)
        return PCMConfiguration(
            deviceName: request.deviceName, direction: request.direction, sampleRateHz: Int(rate),
            channels: Int(channels), format: format, periodFrames: Int(grantedPeriod), bufferFrames: Int(grantedBuffer),
            requestedPeriodFrames: request.periodFrames, requestedPeriodCount: request.periodCount)
    }

    /// Playback starts once the buffer is full (the most cushion against an early underrun);
    /// the writer wakes whenever a period is free.
    private static func configureSoftware(
        _ pcm: OpaquePointer, _ request: PCMRequest, period: snd_pcm_uframes_t, buffer: snd_pcm_uframes_t
    ) throws(ALSAError) {
        let device = "\"\(request.deviceName)\""
        try withParameters("snd_pcm_sw_params_malloc", snd_pcm_sw_params_malloc, free: snd_pcm_sw_params_free) { sw throws(ALSAError) in
            try alsaCheck(snd_pcm_sw_params_current(pcm, sw), "reading sw params of \(device)")
            if request.direction == .playback {
                try alsaCheck(snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer), "start threshold on \(device)")
            }
            try alsaCheck(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "avail_min on \(device)")
            try alsaCheck(snd_pcm_sw_params(pcm, sw), "applying sw params to \(device)")
        }
    }

    /// A parameter block from alsa-lib's `allocate` (`snd_pcm_hw_params_malloc`, …) lent to `body`
    /// and freed after it.
    private static func withParameters<Result>(
        _ allocator: String, _ allocate: (UnsafeMutablePointer<OpaquePointer?>) -> Int32, free: (OpaquePointer) -> Void,
        _ body: (OpaquePointer) throws(ALSAError) -> Result
    ) throws(ALSAError) -> Result {
        var storage: OpaquePointer?
        try alsaCheck(allocate(&storage), allocator)
        guard let parameters = storage else { throw ALSAError(operation: allocator, code: -ENOMEM) }
        defer { free(parameters) }
        return try body(parameters)
    }

    static func alsaFormat(_ format: PCMSampleFormat) -> snd_pcm_format_t {
        switch format {
        case .float32LE: return SND_PCM_FORMAT_FLOAT_LE
        case .signed32LE: return SND_PCM_FORMAT_S32_LE
        case .signed16LE: return SND_PCM_FORMAT_S16_LE
        }
    }
}

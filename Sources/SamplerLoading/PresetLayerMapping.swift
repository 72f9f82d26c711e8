import DSP
import Presets
import Sampler

/// Turns a preset layer's articulation (amp envelope, filter, trigger mode, connections) into a
/// `SamplerLayer`, warning about every connection the sampler does not apply. Control thread.
///
/// Connections understood (the DLS default articulation and its common variants):
/// velocity → gain (concave: `.dlsConcave`; linear: `.linear`; none: velocity ignored),
/// CC7 / CC11 → gain, CC10 → pan, pitch bend (× RPN 0) → pitch (range), key → pitch (12800 =
/// normal tracking), env 0 → gain; into the filter cutoff (cents): key, velocity, one controller,
/// env 1 (the filter envelope); and one LFO (any shape, its delay) → pitch (cents), cutoff (cents),
/// gain (dB) and pan, each optionally scaled by a controller (LFO × CC1 → pitch: vibrato).
struct PresetLayerMapping {
    private(set) var warnings: [String] = []

    mutating func map(_ layer: Presets.Layer, index: Int) -> SamplerLayer {
        var result = SamplerLayer()
        let place = "layer \(index) (ID \(layer.id))"
        if let amp = layer.ampEnvelope {
            result.ampEnvelope = settings(amp, place: place)
        } else {
            result.ampEnvelope = EnvelopeSettings(attackSeconds: 0, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0)
        }
        result.keyOffset = layer.keyOffset
        result.minKey = layer.minKey
        result.maxKey = layer.maxKey
        result.gainDecibels = layer.gainDecibels
        let kind: BiquadCoefficients.Kind
        switch layer.filter.kind {
        case .lowPass, .unknown: kind = .lowPass  // the decoder warned about an unknown type
        case .highPass: kind = .highPass
        case .bandPass: kind = .bandPass
        }
        result.filter = SamplerFilterSettings(
            isEnabled: layer.filter.enabled, kind: kind, cutoffHz: layer.filter.cutoffHz,
            resonanceDecibels: layer.filter.resonanceDecibels)
        switch layer.triggerMode {
        case .oneShot: result.isOneShot = true
        case .normal: break
        case .unknown(let mode): warnings.append("\(place): trigger mode \(mode) unknown; notes release normally")
        }
        applyConnections(layer, to: &result, place: place)
        return result
    }

    private mutating func applyConnections(_ layer: Presets.Layer, to result: inout SamplerLayer, place: String) {
        // Anything not routed stays off: no velocity/CC connection means no response to it.
        result.velocityCurve = .ignored
        result.respondsToVolume = false
        result.respondsToExpression = false
        result.respondsToPan = false
        result.pitchBendRangeSemitones = 0
        result.lfo = nil
        var lfoID: Int?
        var tracksKeys = false
        for connection in layer.connections where connection.enabled {
            let amount = connection.outputRange
            switch (connection.source, connection.destination) {
            case (.velocity, .ampGain):
                result.velocityCurve = connection.transform == .linear ? .linear : .dlsConcave
                if amount.atOne != 0 && amount.atOne != -96 || connection.transform == .linear {
                    warnings.append("\(place): velocity → gain \(describe(connection)) approximated by the \(result.velocityCurve) curve")
                }
            case (.controller(7), .ampGain): result.respondsToVolume = true
            case (.controller(11), .ampGain): result.respondsToExpression = true
            case (.controller(10), .pan): result.respondsToPan = true
            case (.pitchBend, .pitch):
                // With RPN 0 as control (semitones / 128, default 2 semitones) 12800 means 2 semitones.
                let cents = connection.control == .pitchBendRange ? amount.atOne * 2 / 128 : amount.atOne
                result.pitchBendRangeSemitones = abs(cents) / 100
            case (.lfo(_, let index), .pitch), (.lfo(_, let index), .filterCutoff), (.lfo(_, let index), .ampGain),
                (.lfo(_, let index), .pan):
                if !route(connection, lfoIndex: index, layer: layer, into: &result.lfo, chosen: &lfoID, place: place) {
                    warnings.append("\(place): connection \(connection.id) \(describe(connection)) is not applied")
                }
            case (.key, .pitch):
                tracksKeys = true
                if amount.atOne != 12800 {
                    warnings.append("\(place): key → pitch scale \(amount.atOne) cents not applied (100 cents per key used)")
                }
            case (.envelope(_, 0), .ampGain):
                break  // The amp envelope always shapes the level.
            case (_, .filterCutoff) where cutoffModulation(connection, layer: layer, into: &result.filterModulation, place: place):
                break
            default:
                warnings.append("\(place): connection \(connection.id) \(describe(connection)) is not applied")
            }
        }
        if !tracksKeys && !layer.connections.isEmpty {
            warnings.append("\(place): no key → pitch connection; zones still track the keyboard")
        }
    }

    /// One LFO → destination connection into the layer's LFO. The voice runs one LFO: the first
    /// one a connection names; connections from another are refused (the caller warns). An LFO is
    /// bipolar by nature, so `scale` S swings ±S whether or not `bipolar` is set; `min`/`max`
    /// swing between them (a centre other than 0 is refused); `inverse` flips the sign. Pan's unit
    /// is ±0.5 = hard left/right (TN2331), i.e. half a pan position here.
    private mutating func route(
        _ connection: Connection, lfoIndex: Int, layer: Presets.Layer, into lfo: inout SamplerLFO?, chosen: inout Int?,
        place: String
    ) -> Bool {
        guard chosen == nil || chosen == lfoIndex, let source = layer.lfos.first(where: { $0.id == lfoIndex }) else {
            return false
        }
        let controller: Int?
        switch connection.control {
        case .constant: controller = nil
        case .controller(let number): controller = number
        default: return false
        }
        var amount: Double
        if let minValue = connection.minValue, let maxValue = connection.maxValue {
            guard minValue + maxValue == 0 else { return false }
            amount = (maxValue - minValue) / 2
        } else {
            amount = connection.scale ?? 0
        }
        if connection.inverse { amount = -amount }
        if chosen == nil {
            chosen = lfoIndex
            lfo = SamplerLFO(oscillator: Self.oscillator(source))
            if !source.enabled { warnings.append("\(place): LFO \(source.id) is disabled; its connections are silent") }
        }
        guard source.enabled, var routed = lfo else { return true }
        let depth = SamplerLFODepth(amount: amount, controller: controller)
        switch connection.destination {
        case .pitch where routed.pitch == nil: routed.pitch = depth
        case .filterCutoff where routed.cutoff == nil: routed.cutoff = depth
        case .ampGain where routed.gain == nil: routed.gain = depth
        case .pan where routed.pan == nil: routed.pan = SamplerLFODepth(amount: 2 * amount, controller: controller)
        default: return false
        }
        lfo = routed
        return true
    }

    private static func oscillator(_ lfo: Presets.LFO) -> LowFrequencyOscillator.Settings {
        let waveform: LowFrequencyOscillator.Waveform
        switch lfo.waveform {
        case .triangle, .unknown: waveform = .triangle  // the decoder warned about an unknown code
        case .sine: waveform = .sine
        case .square: waveform = .square
        case .sawtooth: waveform = .sawUp
        case .reverseSawtooth: waveform = .sawDown
        case .sampleAndHold: waveform = .sampleAndHold
        case .randomInterpolated: waveform = .randomInterpolated
        }
        return LowFrequencyOscillator.Settings(waveform: waveform, rateHz: lfo.rateHz, delaySeconds: lfo.delaySeconds)
    }

    /// Key, velocity, one controller and the filter envelope (ID 1) can move the cutoff (cents).
    /// Returns false for anything else (the caller warns).
    private mutating func cutoffModulation(
        _ connection: Connection, layer: Presets.Layer, into modulation: inout SamplerFilterModulation, place: String
    ) -> Bool {
        guard connection.control == .constant else { return false }
        let range = connection.outputRange
        let amount = connection.inverse
            ? SamplerModulationAmount(atZero: range.atOne, atOne: range.atZero)
            : SamplerModulationAmount(atZero: range.atZero, atOne: range.atOne)
        switch connection.source {
        case .key where modulation.byKey == nil:
            modulation.byKey = amount
        case .velocity where modulation.byVelocity == nil:
            modulation.byVelocity = amount
        case .controller(let number) where modulation.byController == nil:
            modulation.controller = number
            modulation.byController = amount
        case .envelope(_, 1) where modulation.byEnvelope == nil:
            guard let envelope = layer.envelopes.first(where: { $0.id == 1 }) else { return false }
            modulation.envelope = settings(envelope, place: place)
            modulation.byEnvelope = amount
        default:
            return false
        }
        return true
    }

    private mutating func settings(_ envelope: Presets.Envelope, place: String) -> EnvelopeSettings {
        // Stage 6 is 5 ms in every file seen; voices are stolen with the instrument's own 3 ms fade.
        if abs(envelope.fastReleaseSeconds - Presets.Envelope.defaultFastReleaseSeconds) > 1e-6 {
            warnings.append(
                "\(place): envelope \(envelope.id) fast release (stage 6) \(envelope.fastReleaseSeconds) s not applied")
        }
        return EnvelopeSettings(
            delaySeconds: envelope.delaySeconds, attackSeconds: envelope.attackSeconds, holdSeconds: envelope.holdSeconds,
            decaySeconds: envelope.decaySeconds, sustainLevel: envelope.sustainLevel, releaseSeconds: envelope.releaseSeconds,
            attackCurve: curve(envelope.attackCurve, envelope: envelope.id, stage: "attack", place: place),
            decayCurve: curve(envelope.decayCurve, envelope: envelope.id, stage: "decay", place: place),
            releaseCurve: curve(envelope.releaseCurve, envelope: envelope.id, stage: "release", place: place))
    }

    private mutating func curve(_ code: Int?, envelope: Int, stage: String, place: String) -> EnvelopeCurve {
        switch StageCurve(code: code) {
        case .linear: return .linear
        case .convex: return .convex
        case .concave: return .concave
        case .unknown(let code):
            warnings.append("\(place): envelope \(envelope) \(stage) curve \(code) unknown; played linear")
            return .linear
        }
    }

    private func describe(_ connection: Connection) -> String {
        let range = connection.outputRange
        var text = "\(connection.source) → \(connection.destination)"
        if connection.control != .constant { text += " × \(connection.control)" }
        return text + " (\(range.atZero)…\(range.atOne))"
    }
}

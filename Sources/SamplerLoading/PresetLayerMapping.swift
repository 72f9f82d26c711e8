import DSP
import Presets
import Sampler

/// Turns a preset layer's articulation (amp envelope, filter, trigger mode, connections) into a
/// `SamplerLayer`, warning about every connection the sampler does not apply. Control thread.
///
/// Connections understood (the DLS default articulation and its common variants):
/// velocity → gain (concave: `.dlsConcave`; linear: `.linear`; none: velocity ignored),
/// CC7 / CC11 → gain, CC10 → pan, pitch bend (× RPN 0) → pitch (range), LFO × CC1 → pitch
/// (vibrato depth, LFO rate), key → pitch (12800 = normal tracking), env 0 → gain; and into the
/// filter cutoff (cents): key, velocity, one controller, env 1 (the filter envelope).
struct PresetLayerMapping {
    private(set) var warnings: [String] = []

    mutating func map(_ layer: Presets.Layer, index: Int) -> SamplerLayer {
        var result = SamplerLayer()
        let place = "layer \(index) (ID \(layer.id))"
        if let amp = layer.ampEnvelope {
            result.ampEnvelope = Self.settings(amp)
        } else {
            result.ampEnvelope = EnvelopeSettings(attackSeconds: 0, decaySeconds: 0, sustainLevel: 1, releaseSeconds: 0)
        }
        result.keyOffset = layer.keyOffset
        result.minKey = layer.minKey
        result.maxKey = layer.maxKey
        result.gainDecibels = layer.gainDecibels
        result.filter = SamplerFilterSettings(
            isEnabled: layer.filter.enabled, cutoffHz: layer.filter.cutoffHz,
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
        result.vibratoDepthCents = 0
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
            case (.lfo(_, let lfoIndex), .pitch) where connection.control == .controller(1):
                result.vibratoDepthCents = abs(amount.atOne)
                if let lfo = layer.lfos.first(where: { $0.id == lfoIndex }) { result.vibratoRateHz = lfo.rateHz }
            case (.key, .pitch):
                tracksKeys = true
                if amount.atOne != 12800 {
                    warnings.append("\(place): key → pitch scale \(amount.atOne) cents not applied (100 cents per key used)")
                }
            case (.envelope(_, 0), .ampGain):
                break  // The amp envelope always shapes the level.
            case (_, .filterCutoff) where cutoffModulation(connection, layer: layer, into: &result.filterModulation):
                break
            default:
                warnings.append("\(place): connection \(connection.id) \(describe(connection)) is not applied")
            }
        }
        if !tracksKeys && !layer.connections.isEmpty {
            warnings.append("\(place): no key → pitch connection; zones still track the keyboard")
        }
    }

    /// Key, velocity, one controller and the filter envelope (ID 1) can move the cutoff (cents).
    /// Returns false for anything else (the caller warns).
    private func cutoffModulation(_ connection: Connection, layer: Presets.Layer, into modulation: inout SamplerFilterModulation) -> Bool {
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
            modulation.envelope = Self.settings(envelope)
            modulation.byEnvelope = amount
        default:
            return false
        }
        return true
    }

    private static func settings(_ envelope: Presets.Envelope) -> EnvelopeSettings {
        EnvelopeSettings(
            delaySeconds: envelope.delaySeconds, attackSeconds: envelope.attackSeconds, holdSeconds: envelope.holdSeconds,
            decaySeconds: envelope.decaySeconds, sustainLevel: envelope.sustainLevel, releaseSeconds: envelope.releaseSeconds)
    }

    private func describe(_ connection: Connection) -> String {
        let range = connection.outputRange
        var text = "\(connection.source) → \(connection.destination)"
        if connection.control != .constant { text += " × \(connection.control)" }
        return text + " (\(range.atZero)…\(range.atOne))"
    }
}

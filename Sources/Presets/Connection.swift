/// One modulation connection of a layer (a DLS2-style connection block).
///
/// Evaluation hypothesis (format notes §7.3, not verified against AUSampler): normalise the
/// source to x ∈ 0…1 (CC/127, velocity/127, key/128, pitch bend to 0…1), `inverse` → 1 − x,
/// apply `transform`, multiply by the normalised `control` unless it is `.constant`, then map
/// x = 0…1 onto `outputRange`. All connections into one destination add.
///
/// Pure data: any thread may read it.
public struct Connection: Sendable, Equatable {
    public var id: Int
    public var enabled: Bool
    /// The stored integer codes; `source`, `control` and `destination` decode them.
    public var sourceCode: Int
    public var controlCode: Int
    public var destinationCode: Int
    public var transform: ConnectionTransform
    public var inverse: Bool
    /// `bipolar` (2011–2015 files): with `scale` S the output spans −S…S instead of 0…S.
    public var bipolar: Bool
    /// Older files store `scale`, newer ones `min value` + `max value`; whichever is present.
    public var scale: Double?
    public var minValue: Double?
    public var maxValue: Double?
    /// `name`: a user label in AU Lab (e.g. "Cutoff").
    public var name: String?

    public init(
        id: Int, enabled: Bool = true, source: ModulationSource, control: ModulationSource = .constant,
        destination: ModulationDestination, layerID: Int, transform: ConnectionTransform = .linear,
        inverse: Bool = false, bipolar: Bool = false, scale: Double? = nil,
        minValue: Double? = nil, maxValue: Double? = nil, name: String? = nil
    ) {
        self.init(
            id: id, enabled: enabled, sourceCode: source.code, controlCode: control.code,
            destinationCode: destination.code(layerID: layerID), transform: transform, inverse: inverse,
            bipolar: bipolar, scale: scale, minValue: minValue, maxValue: maxValue, name: name)
    }

    public init(
        id: Int, enabled: Bool, sourceCode: Int, controlCode: Int, destinationCode: Int,
        transform: ConnectionTransform, inverse: Bool, bipolar: Bool, scale: Double?,
        minValue: Double?, maxValue: Double?, name: String?
    ) {
        self.id = id
        self.enabled = enabled
        self.sourceCode = sourceCode
        self.controlCode = controlCode
        self.destinationCode = destinationCode
        self.transform = transform
        self.inverse = inverse
        self.bipolar = bipolar
        self.scale = scale
        self.minValue = minValue
        self.maxValue = maxValue
        self.name = name
    }

    public var source: ModulationSource { ModulationSource(code: sourceCode) }
    public var control: ModulationSource { ModulationSource(code: controlCode) }
    public var destination: ModulationDestination { ModulationDestination(code: destinationCode) }
    /// The layer ID embedded in the destination code.
    public var destinationLayerID: Int { ModulationDestination.layerID(ofCode: destinationCode) }

    /// The destination amount (in its unit: cents, dB, pan) at normalised input 0 and at 1.
    /// `min value`/`max value` when present; else `scale` S gives −S…S if `bipolar`, 0…S if not;
    /// a connection with neither contributes nothing (0…0).
    public var outputRange: (atZero: Double, atOne: Double) {
        if let minValue, let maxValue { return (minValue, maxValue) }
        guard let scale else { return (0, 0) }
        return bipolar ? (-scale, scale) : (0, scale)
    }
}

extension Connection {
    /// The connections AUSampler uses when a layer has none: the DLS default articulation, in
    /// the form AU Lab writes it (`scale`, IDs 0–7 as in Apple's 2011 Trombone preset).
    ///
    /// Confidence: key → pitch 12800, velocity/CC7/CC11 → gain −96 dB inverse concave,
    /// pitch bend × RPN 0 → pitch 12800 (bipolar), env 0 → gain −96 dB inverse linear are as
    /// written by AU Lab [OBS]. CC10 → pan ±0.508 and LFO × CC1 → pitch ±50 cents are the
    /// later AU defaults named in the format notes [INF]; Apple's 2011 Trombone stores pan
    /// scale 1 and vibrato scale 200 instead. The RPN 1 fine-tune connection of DLS is left
    /// out (never seen as a stored default). With RPN 0 normalised as semitones / 128, the
    /// default 2-semitone range gives 12800 × 2/128 = 200 cents of bend.
    ///
    /// - Parameter layerID: the layer's `ID` (embedded in destination and LFO/envelope codes).
    public static func dlsDefaults(layerID: Int) -> [Connection] {
        [
            Connection(id: 0, source: .key, destination: .pitch, layerID: layerID, scale: 12800),
            Connection(
                id: 1, source: .velocity, destination: .ampGain, layerID: layerID,
                transform: .concave, inverse: true, scale: -96),
            Connection(
                id: 2, source: .controller(7), destination: .ampGain, layerID: layerID,
                transform: .concave, inverse: true, scale: -96),
            Connection(
                id: 3, source: .controller(11), destination: .ampGain, layerID: layerID,
                transform: .concave, inverse: true, scale: -96),
            Connection(
                id: 4, source: .controller(10), destination: .pan, layerID: layerID,
                bipolar: true, scale: 0.508),
            Connection(
                id: 5, source: .envelope(layerID: layerID, index: 0), destination: .ampGain,
                layerID: layerID, inverse: true, scale: -96),
            Connection(
                id: 6, source: .lfo(layerID: layerID, index: 0), control: .controller(1),
                destination: .pitch, layerID: layerID, bipolar: true, scale: 50),
            Connection(
                id: 7, source: .pitchBend, control: .pitchBendRange, destination: .pitch,
                layerID: layerID, bipolar: true, scale: 12800),
        ]
    }
}

/// One key/velocity zone of a layer: which sample plays, at which root key, with which loop.
///
/// Values are as decoded from the preset; where the file leaves a key out the field says what the
/// default is. Pure data: any thread may read it.
public struct Zone: Sendable, Equatable {
    /// The `waveform` value meaning AU Lab's built-in sine ("Sine 440 Built-In"): no file.
    public static let builtInSineWaveform = -2

    /// `ID`: opaque, not ordered, not contiguous.
    public var id: Int
    /// `enabled`: disabled zones stay in the model (reports list them) but never sound.
    public var enabled: Bool
    /// `name`, e.g. the sample file name (display only).
    public var name: String?
    /// `waveform`: the key of `AUPreset.fileReferences` ("Sample:<n>"), or `builtInSineWaveform`.
    public var waveform: Int
    /// `root key`: the MIDI key at which the sample plays unshifted; may lie outside the key range
    /// (drum kits) but the decoder clamps it to 0…127.
    /// `nil` when the file leaves it out: use the sample file's base note, else 60.
    public var rootKey: Int?
    /// `min key`/`max key`, inclusive; absent = whole keyboard. A stored 128 is clamped to 127.
    public var minKey: Int
    public var maxKey: Int
    /// `min vel`/`max vel`, inclusive; absent = 0…127.
    public var minVelocity: Int
    public var maxVelocity: Int
    /// `loop enabled`: loop points may be present while this is false.
    public var loopEnabled: Bool
    /// `loop start` in sample frames; `nil` = take it from the file's loop metadata, else 0.
    public var loopStart: Int?
    /// End of the loop in sample frames, HALF-OPEN: the loop plays frames `loopStart..<loopEnd`.
    /// The file stores the INCLUSIVE last frame (`loop end` 11999 in AU Lab's built-in sine =
    /// a 12000-frame loop = exactly 110 cycles of 440 Hz at 48 kHz); the decoder adds 1.
    /// `nil` = take it from the file's loop metadata, else the sample length.
    public var loopEnd: Int?
    /// `gain`, decibels (0 if absent).
    public var gainDecibels: Double
    /// `coarse tune`, semitones (0 if absent).
    public var coarseTuneSemitones: Int
    /// `fine tune`, cents (0 if absent).
    public var fineTuneCents: Double
    /// `pitch tracking`: false → every key plays at the root pitch (drum pads). Default true.
    public var pitchTracking: Bool

    public init(
        id: Int, enabled: Bool = true, name: String? = nil, waveform: Int, rootKey: Int? = nil,
        minKey: Int = 0, maxKey: Int = 127, minVelocity: Int = 0, maxVelocity: Int = 127,
        loopEnabled: Bool = false, loopStart: Int? = nil, loopEnd: Int? = nil,
        gainDecibels: Double = 0, coarseTuneSemitones: Int = 0, fineTuneCents: Double = 0,
        pitchTracking: Bool = true
    ) {
        self.id = id
        self.enabled = enabled
        self.name = name
        self.waveform = waveform
        self.rootKey = rootKey
        self.minKey = minKey
        self.maxKey = maxKey
        self.minVelocity = minVelocity
        self.maxVelocity = maxVelocity
        self.loopEnabled = loopEnabled
        self.loopStart = loopStart
        self.loopEnd = loopEnd
        self.gainDecibels = gainDecibels
        self.coarseTuneSemitones = coarseTuneSemitones
        self.fineTuneCents = fineTuneCents
        self.pitchTracking = pitchTracking
    }

    /// True for AU Lab's built-in sine zone (no sample file).
    public var usesBuiltInSine: Bool { waveform == Self.builtInSineWaveform }

    /// Whether this zone (if enabled) answers a note: both ranges are inclusive. Safe for
    /// inverted ranges (min > max), which match nothing.
    public func matches(key: Int, velocity: Int) -> Bool {
        enabled && minKey <= key && key <= maxKey && minVelocity <= velocity && velocity <= maxVelocity
    }
}

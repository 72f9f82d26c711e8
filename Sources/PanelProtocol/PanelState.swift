import Foundation
import MemberwiseInit

/// Everything the page shows, left to right along the signal path, as one JSON frame sent to
/// every open page at the feed rate. Levels are dBFS (−160 for silence), rounded to 0.1 dB.
public struct PanelState: Codable, Sendable, Equatable {
    /// MIDI in: the source ports connected now (nil without a sequencer) and notes received per
    /// channel since start (the page flashes a channel whose count moved).
    public var midiSources: [String]?
    public var midiNotes: [Int]
    /// The 16 parts, channel 1 first.
    public var parts: [Part]
    /// Mic/line input: peak and RMS (left, right), nil without an input.
    public var inputPeak: [Double]?
    public var inputRMS: [Double]?
    public var pitchHz: Double?
    /// The detected pitch's note name (A4, C#3) and how far from it, in cents.
    public var pitchNote: String?
    public var pitchCents: Double?
    /// Mixer buses by name, in the engine's order.
    public var buses: [Bus]
    /// Master: the limiter's gain reduction now (dB, ≥ 0), output peak and RMS (left, right).
    public var limiterReduction: Double
    public var outputPeak: [Double]
    public var outputRMS: [Double]
    public var health: Health
    /// Every parameter's current value by name (what `audiograph get` reads).
    public var values: [String: Double]

    @PublicInit
    public struct Part: Codable, Sendable, Equatable {
        public var channel: Int
        public var program: String
        public var voices: Int
        /// Peak of the part's sub-mix in the last frame, dBFS.
        public var level: Double
    }

    @PublicInit
    public struct Bus: Codable, Sendable, Equatable {
        public var name: String
        public var peak: Double
        public var rms: Double
    }

    @PublicInit
    public struct Health: Codable, Sendable, Equatable {
        public var xruns: Int
        public var dspLoad: Double
        public var worstDspLoad: Double
        public var voices: Int
        public var startupMilliseconds: Double?
        public var playback: String
        public var capture: String?
        public var realtime: String
        public var sampler: String
        public var audioServer: String?
    }

    public init(midiSources: [String]?, midiNotes: [Int], parts: [Part], inputPeak: [Double]?, inputRMS: [Double]?, pitchHz: Double?, buses: [Bus],
                limiterReduction: Double, outputPeak: [Double], outputRMS: [Double], health: Health, values: [String: Double]) {
        self.midiSources = midiSources
        self.midiNotes = midiNotes
        self.parts = parts
        self.inputPeak = inputPeak
        self.inputRMS = inputRMS
        self.pitchHz = pitchHz
        if let pitchHz, let named = PitchName(hz: pitchHz) {
            pitchNote = named.name
            pitchCents = named.cents
        }
        self.buses = buses
        self.limiterReduction = limiterReduction
        self.outputPeak = outputPeak
        self.outputRMS = outputRMS
        self.health = health
        self.values = values
    }
}

/// The nearest equal-tempered note (A4 = 440 Hz) and the distance to it in cents.
public struct PitchName: Equatable, Sendable {
    public var name: String
    public var cents: Double

    public init?(hz: Double, a4: Double = 440) {
        guard hz.isFinite, hz > 0 else { return nil }
        let midi = 69 + 12 * log2(hz / a4)
        guard midi.isFinite, (0...127).contains(midi.rounded()) else { return nil }
        let nearest = Int(midi.rounded())
        let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
        name = names[nearest % 12] + String(nearest / 12 - 1)
        cents = ((midi - Double(nearest)) * 1000).rounded() / 10
    }
}

import AudioTestSupport
import Foundation
import Presets
import Sampler
import SamplerLoading
import Testing

/// The bundled General MIDI presets played through the sampler as a song would play them:
/// pitch at every zone's root, level against Keys, velocity response, and the drum kit's keys
/// landing on the right kit pieces (by sample and by spectrum).
@Suite struct BundledGMPresetTests {
    static let presets = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Presets"

    static func load(_ name: String) throws -> (preset: AUPreset, program: SamplerProgram) {
        let path = presets + "/" + name + ".aupreset"
        let preset: AUPreset
        do {
            preset = try AUPreset.load(path: path)
        } catch {
            throw FixtureFailure(error.description)
        }
        let result = try SamplerProgramBuilder.build(
            preset: preset, presetPath: path, searchDirectories: [], sampleRate: testSampleRate, userDirectories: [])
        #expect(result.warnings.isEmpty, "\(name): \(result.warnings)")
        #expect(result.samples.allSatisfy { $0.isLoaded }, "\(name): every zone's sample resolves and loads")
        return (preset, result.program)
    }

    /// `seconds` of one note at `velocity`, released after `holdSeconds` (left channel).
    static func play(_ program: SamplerProgram, key: Int, velocity: Int = 100, seconds: Double = 1.2, holdSeconds: Double = 1.0)
        -> [Float]
    {
        let frames = Int(seconds * testSampleRate)
        let events = [At(0, noteOn(key, velocity)), At(Int(holdSeconds * testSampleRate), noteOff(key))]
        return render(instrument(playing: program, quality: .high), frames: frames, events: events).left
    }

    /// The level of a held note: RMS over its first second (attack, decay and sustain), in dBFS.
    static func heldLevel(_ x: [Float]) -> Double {
        Measure.decibels(Measure.rms(x[0..<Int(1.0 * testSampleRate)]))
    }

    static let melodic: [(name: String, key: Int)] = [("Bass", 43), ("Guitar", 57), ("Strings", 60), ("Organ", 60)]

    /// Measured (dB relative to Keys at C4): see docs/PERFORMANCE.md and Presets/README.md; the bound is ±2 dB.
    @Test(arguments: melodic)
    func heldNoteSitsWithinTwoDecibelsOfKeys(preset: (name: String, key: Int)) throws {
        let keys = Self.heldLevel(Self.play(try Self.load("Keys").program, key: 60))
        let level = Self.heldLevel(Self.play(try Self.load(preset.name).program, key: preset.key))
        print("level at velocity 100: \(preset.name) key \(preset.key) \(level) dBFS, Keys C4 \(keys) dBFS")
        #expect(abs(level - keys) <= 2, "\(preset.name) \(level) dBFS vs Keys \(keys) dBFS")
        #expect(keys > -30, "level floor: Keys sounds")
    }

    /// The tone families programs shape in the instrument file (`Instruments/default.json`).
    static let families = [
        "Piano", "Mallet", "Bell", "Pluck", "Brass", "Reed", "Clarinet", "Flute", "Saw", "Square", "Pad", "Voice", "Membrane", "Overdrive",
    ]

    /// Every zone, played at its root, sounds at the root's equal-tempered pitch within 1 cent.
    @Test(arguments: melodic.map(\.name) + families)
    func everyZoneIsInTuneAtItsRoot(name: String) throws {
        let (preset, program) = try Self.load(name)
        let zones = try #require(preset.layers.first?.zones)
        #expect(zones.count == 3)
        for zone in zones {
            let root = try #require(zone.rootKey)
            let out = Self.play(program, key: root, seconds: 0.9)
            let expected = Measure.noteFrequency(Double(root))
            let region = out[Int(0.35 * testSampleRate)..<Int(0.85 * testSampleRate)]
            let measured = try #require(Measure.frequency(region, sampleRate: testSampleRate, guess: expected))
            let error = Measure.cents(measured, relativeTo: expected)
            print("pitch: \(name) root \(root) \(error) cents")
            #expect(abs(error) < 1, "\(name) root \(root): \(error) cents")
        }
    }

    /// Velocity changes the level along the DLS concave curve: 40·log10(50/100) = −12 dB.
    @Test(arguments: ["Bass", "Drums"])
    func velocityChangesTheLevel(name: String) throws {
        let program = try Self.load(name).program
        let key = name == "Drums" ? 38 : 43
        let loud = Measure.peak(Self.play(program, key: key, velocity: 100, seconds: 0.3, holdSeconds: 0.3))
        let soft = Measure.peak(Self.play(program, key: key, velocity: 50, seconds: 0.3, holdSeconds: 0.3))
        let difference = Measure.decibels(soft) - Measure.decibels(loud)
        #expect(abs(difference - 40 * log10(0.5)) < 0.5, "\(name): \(difference) dB")
    }

    /// Each percussion key 27–87 plays its kit piece's sample (the zone for that key); the toms
    /// have a sample each, the second crash and ride are the first ones retuned.
    @Test func drumKeysMapToTheirKitPieces() throws {
        let preset = try Self.load("Drums").preset
        let layer = try #require(preset.layers.first)
        #expect(layer.triggerMode == .oneShot)
        let expected: [Int: String] = [
            27: "high-q", 28: "slap", 29: "scratch-push", 30: "scratch-pull", 31: "sticks", 32: "square-click", 33: "metronome-click",
            34: "metronome-bell", 35: "kick-deep", 36: "kick", 37: "side-stick", 38: "snare", 39: "clap", 40: "snare-electric",
            41: "tom-41", 42: "hihat-closed", 43: "tom-43", 44: "hihat-pedal", 45: "tom-45", 46: "hihat-open", 47: "tom-47",
            48: "tom-48", 49: "crash", 50: "tom-50", 51: "ride", 52: "china", 53: "ride-bell", 54: "tambourine", 55: "splash",
            56: "cowbell", 57: "crash", 58: "vibraslap", 59: "ride", 60: "bongo-high", 61: "bongo-low", 62: "conga-mute",
            63: "conga-open", 64: "conga-low", 65: "timbale-high", 66: "timbale-low", 67: "agogo-high", 68: "agogo-low", 69: "cabasa",
            70: "maracas", 71: "whistle-short", 72: "whistle-long", 73: "guiro-short", 74: "guiro-long", 75: "claves",
            76: "woodblock-high", 77: "woodblock-low", 78: "cuica-mute", 79: "cuica-open", 80: "triangle-mute", 81: "triangle-open",
            82: "shaker", 83: "jingle-bell", 84: "belltree", 85: "castanets", 86: "surdo-mute", 87: "surdo-open",
        ]
        for (key, piece) in expected {
            let zones = layer.zones.filter { $0.matches(key: key, velocity: 100) }
            #expect(zones.count == 1, "key \(key)")
            let file = zones.first.flatMap { preset.fileReference(for: $0) } ?? ""
            #expect(file.hasSuffix("/Sounds/Drums/\(piece).wav"), "key \(key) plays \(file)")
        }
        let silent = (0...127).filter { key in !layer.zones.contains { $0.matches(key: key, velocity: 100) } }
        #expect(silent == Array(0...26) + Array(88...127))
    }

    /// RMS frequency (the spectrum's second moment): fs/π · asin(rms(Δx) / (2·rms(x))).
    static func rmsFrequency(_ x: ArraySlice<Float>) -> Double {
        let differences = zip(x.dropFirst(), x).map { $0 - $1 }
        let ratio = Measure.rms(differences) / (2 * Measure.rms(x))
        return testSampleRate / Double.pi * asin(min(1, ratio))
    }

    /// Seconds from the peak until the level stays 40 dB under it (10 ms RMS windows).
    static func ringSeconds(_ x: [Float]) -> Double {
        let window = 480
        let levels = stride(from: 0, to: x.count - window, by: window).map { Measure.rms(x[$0..<($0 + window)]) }
        let loudest = levels.indices.max { levels[$0] < levels[$1] } ?? 0
        let last = levels.lastIndex { $0 > levels[loudest] / 100 } ?? loudest
        return Double(last - loudest + 1) * Double(window) / testSampleRate
    }

    /// Each drum key, by what it sounds like: kicks low, toms low and rising with the key, snares
    /// and claps in the mids, hats and cymbals high; closed and pedal hats short, the open hat
    /// and cymbals ringing; one-shot (a note-off at once does not cut the hit).
    @Test func drumKeysSoundLikeTheirKitPieces() throws {
        let program = try Self.load("Drums").program
        var brightness: [Int: Double] = [:], ring: [Int: Double] = [:]
        for key in [35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 53, 54, 56, 57, 59] {
            let out = Self.play(program, key: key, seconds: 2.5, holdSeconds: 0.001)
            #expect(Measure.peak(out) > 0.05, "key \(key) sounds")
            brightness[key] = Self.rmsFrequency(out[0..<Int(0.1 * testSampleRate)])
            ring[key] = Self.ringSeconds(out)
        }
        let b = brightness.mapValues { $0.rounded() }
        for key in [35, 36] { #expect(b[key]! < 150, "kick \(key): \(b[key]!) Hz") }
        let toms = [41, 43, 45, 47, 48, 50]
        #expect(toms.map { b[$0]! } == toms.map { b[$0]! }.sorted(), "toms rise with the key: \(toms.map { b[$0]! })")
        for key in toms { #expect((80...350).contains(b[key]!), "tom \(key): \(b[key]!) Hz") }
        for key in [37, 38, 39, 40] { #expect((1_000...6_000).contains(b[key]!), "snare/clap/stick \(key): \(b[key]!) Hz") }
        for key in [42, 44, 46, 54] { #expect(b[key]! > 5_000, "hat/tambourine \(key): \(b[key]!) Hz") }
        for key in [49, 51, 57, 59] { #expect(b[key]! > 4_000, "cymbal \(key): \(b[key]!) Hz") }
        #expect(ring[42]! < 0.15 && ring[44]! < 0.15, "closed \(ring[42]!) s, pedal \(ring[44]!) s")
        #expect(ring[46]! > 2 * ring[42]!, "open hat rings: \(ring[46]!) s")
        for key in [49, 51, 57, 59] { #expect(ring[key]! > 0.8, "cymbal \(key): \(ring[key]!) s") }
        #expect(ring[36]! > 0.2, "one-shot: the kick plays on past its note-off")
    }

    /// Drums are punchy but not in another league: each piece's peak within +8 / −20 dB of a Keys
    /// note's peak at the same velocity. (The kit's balance against FluidR3_GM's, key by key, is
    /// `GeneralMIDISoundSetTests.kitBalanceFollowsFluidR3`.)
    @Test func drumLevelsSitWithTheKeys() throws {
        let keys = Measure.decibels(Measure.peak(Self.play(try Self.load("Keys").program, key: 60)))
        let drums = try Self.load("Drums").program
        for key in [35, 36, 37, 38, 39, 40, 41, 42, 44, 46, 49, 51, 53, 54, 56] {
            let peak = Measure.decibels(Measure.peak(Self.play(drums, key: key, seconds: 0.5, holdSeconds: 0.5)))
            #expect((keys - 20...keys + 8).contains(peak), "key \(key): \(peak) dBFS vs Keys \(keys) dBFS")
        }
    }
}

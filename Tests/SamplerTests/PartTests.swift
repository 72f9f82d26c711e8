#if canImport(Glibc)
import Glibc
#endif
import AudioTestSupport
import MIDI
import Sampler
import SamplerLevels
import Testing

/// The sampler as a 16-part sound module: each channel its own program and controllers, program
/// change and bank select by index, the drum part, and one voice pool stolen from across parts.
@Suite struct PartTests {
    let rate = testSampleRate
    /// A controller-free part measured twice must agree this closely (float summation order).
    let nullTolerance: Float = 1e-6

    func sine(_ hz: Double, releaseSeconds: Double = 0.05) -> SamplerProgram {
        // 5 ms attack: note onsets are smooth, so any step the third difference finds is a bug.
        SamplerProgram.single(.sineCycle(frequencyHz: hz), rootKey: 69, layer: plainLayer(attackSeconds: 0.005, releaseSeconds: releaseSeconds),
                              globals: SamplerGlobals(gainDecibels: -12))
    }

    func on(_ channel: UInt8, _ key: UInt8, _ velocity: UInt8 = 100) -> MIDIMessage { .noteOn(channel: channel, note: key, velocity: velocity) }
    func off(_ channel: UInt8, _ key: UInt8) -> MIDIMessage { .noteOff(channel: channel, note: key, velocity: 64) }
    func cc(_ channel: UInt8, _ number: UInt8, _ value: UInt8) -> MIDIMessage { .controlChange(channel: channel, controller: number, value: value) }

    /// CC7 at full on every part (GM starts it at 100), so levels are the programs' own; sending
    /// it adopts the bank, so a test of the hand-over itself asks for `fullVolume: false`.
    func sampler(_ bank: ProgramBank, maxVoices: Int = 64, fullVolume: Bool = true) -> SamplerInstrument {
        for program in bank.programs { program.buildAllLevels() }
        let s = SamplerInstrument(sampleRate: rate, maxFrames: 512, maxVoices: maxVoices)
        s.submit(bank)
        if fullVolume { for channel in UInt8(0)..<16 { s.handle(cc(channel, MIDIController.volume, 127)) } }
        return s
    }

    /// Channel 3 (index 2) moves every controller it has while channel 4 (index 3) holds A4: channel
    /// 4's part of the output is the same, sample for sample, as channel 4 alone, and its level and
    /// pitch are as measured alone. Channel 3 itself did change (the test can fail).
    @Test func controllersOnChannel3LeaveChannel4Untouched() throws {
        let bank = ProgramBank.single(sine(440))
        let frames = 48_000
        let channel3Moves = [
            At(0, on(2, 57)),
            At(4_800, cc(2, MIDIController.volume, 30)), At(4_800, cc(2, MIDIController.pan, 0)),
            At(4_800, cc(2, MIDIController.expression, 90)),
            At(5_000, cc(2, 101, 0)), At(5_000, cc(2, 100, 0)), At(5_000, cc(2, 6, 7)),  // RPN 0: ±7 semitones
            At(5_200, .pitchBend(channel: 2, value: 8191)),
            At(6_000, cc(2, MIDIController.sustainPedal, 127)), At(6_000, cc(2, MIDIController.sostenutoPedal, 127)),
            At(9_600, off(2, 57)), At(9_600, cc(2, MIDIController.modulationWheel, 127)),
        ]
        let channel4 = [At(0, on(3, 69))]
        let both = render(sampler(bank), frames: frames, events: channel3Moves + channel4)
        let only3 = render(sampler(bank), frames: frames, events: channel3Moves)
        let only4 = render(sampler(bank), frames: frames, events: channel4)
        for i in 0..<frames {
            #expect(abs(both.left[i] - only3.left[i] - only4.left[i]) <= nullTolerance)
            #expect(abs(both.right[i] - only3.right[i] - only4.right[i]) <= nullTolerance)
        }
        // Channel 4 measured in the mix: level and pitch as alone.
        let window = both.right[14_400...]
        let alone = Measure.amplitude(only4.right[14_400...], at: 440, sampleRate: rate)
        #expect(abs(Measure.decibels(Measure.amplitude(window, at: 440, sampleRate: rate) / alone)) < 0.05)
        let pitch = try #require(Measure.frequency(window, sampleRate: rate, guess: 440))
        #expect(abs(Measure.cents(pitch, relativeTo: 440)) < 0.5)
        // Channel 3 was bent 7 semitones (RPN 0) and panned hard left.
        let bent = 220 * pow(2, 7.0 / 12 * 8191 / 8192)
        let measured3 = try #require(Measure.frequency(only3.left[6_000..<9_600], sampleRate: rate, guess: bent))
        #expect(abs(Measure.cents(measured3, relativeTo: bent)) < 1)
        #expect(Measure.peak(only3.right[14_400...]) < 1e-4, "CC10 = 0 is hard left")
        #expect(Measure.rms(only3.left[14_400...]) > 0.001, "held by the pedals after its note-off (at CC7 30, CC11 90)")
    }

    /// A program change on channel 2 (and even on channel 1 itself) leaves channel 1's sounding A4
    /// as it was: no click, no level change; the next note on each channel plays the new program.
    @Test func programChangeLeavesSoundingNotesAndOtherChannelsUntouched() throws {
        let row: [PartProgram?] = [.sampler(0), .sampler(1)]
        let bank = ProgramBank(programs: [sine(440), sine(660)], names: ["a", "b"], table: [0: row])
        let s = sampler(bank)
        let out = render(s, frames: 48_000, events: [
            At(0, on(0, 69)),
            At(12_000, .programChange(channel: 1, program: 1)), At(12_000, on(1, 69)),
            At(18_000, .programChange(channel: 0, program: 1)),
            At(36_000, off(0, 69)), At(36_000, off(1, 69)), At(38_400, on(0, 69)),
        ])
        let before = Measure.amplitude(out.left[2_400..<12_000], at: 440, sampleRate: rate)
        let after = Measure.amplitude(out.left[19_200..<36_000], at: 440, sampleRate: rate)
        #expect(before > 0.05, "level floor: channel 1 sounds")
        #expect(abs(Measure.decibels(after / before)) < 0.05)
        #expect(Measure.amplitude(out.left[19_200..<36_000], at: 660, sampleRate: rate) > 0.05, "channel 2 plays program 1")
        Measure.expectNoClick(out.left[2_400..<36_000])
        // Channel 1's next note takes its new program.
        let next = try #require(Measure.frequency(out.left[40_800...], sampleRate: rate, guess: 660))
        #expect(abs(Measure.cents(next, relativeTo: 660)) < 0.5)
    }

    /// CC0 selects a bank; a program the bank lacks falls back to bank 0; CC32 alone changes nothing.
    @Test func bankSelectPicksFromTheBankAndFallsBackToBank0() throws {
        var bank1 = [PartProgram?](repeating: nil, count: 128)
        bank1[5] = .sampler(1)
        let bank = ProgramBank(programs: [sine(440), sine(660)], names: ["a", "b"],
                               table: [0: [PartProgram?](repeating: .sampler(0), count: 128), 1: bank1])
        func pitch(_ events: [At]) throws -> Double {
            let out = render(sampler(bank), frames: 24_000, events: events + [At(10, on(4, 69))])
            return try #require(Measure.frequency(out.left[4_800...], sampleRate: rate, guess: 550))
        }
        #expect(abs(Measure.cents(try pitch([At(0, cc(4, 0, 1)), At(1, .programChange(channel: 4, program: 5))]), relativeTo: 660)) < 1)
        #expect(abs(Measure.cents(try pitch([At(0, cc(4, 0, 1)), At(1, .programChange(channel: 4, program: 6))]), relativeTo: 440)) < 1)
        #expect(abs(Measure.cents(try pitch([At(0, cc(4, 32, 1)), At(1, .programChange(channel: 4, program: 5))]), relativeTo: 440)) < 1)
    }

    /// With General MIDI part setups, channel 10 plays the percussion bank (128) whatever program
    /// or bank it is sent; the other channels play bank 0.
    @Test func channel10IsTheDrumPart() throws {
        let bank = ProgramBank(programs: [sine(440), sine(660)], names: ["melodic", "kit"],
                               table: [0: [PartProgram?](repeating: .sampler(0), count: 128), 128: [.sampler(1)]])
        let s = sampler(bank, fullVolume: false)
        #expect(s.partProgram(channel: 9) == nil, "a query: the bank is taken up at the block's start, not here")
        s.adoptPendingBank()
        #expect(s.partProgram(channel: 9) == .sampler(1))
        #expect(s.partProgram(channel: 0) == .sampler(0))
        let out = render(s, frames: 24_000, events: [
            At(0, cc(9, 0, 0)), At(0, .programChange(channel: 9, program: 25)), At(10, on(9, 69)),
        ])
        #expect(s.partProgram(channel: 9) == .sampler(1), "kit 25 is not defined: kit 0 plays")
        let drum = try #require(Measure.frequency(out.left[4_800...], sampleRate: rate, guess: 660))
        #expect(abs(Measure.cents(drum, relativeTo: 660)) < 1)
    }

    /// A one-shot "drum": a 440 Hz burst decaying over `seconds` (pitch tracking on, root A4).
    func drum(seconds: Double = 0.3) throws -> SamplerProgram {
        let count = Int(seconds * rate)
        let tone = Measure.sine(frequency: 440, sampleRate: rate, count: count, amplitude: 1)
        let samples = tone.indices.map { tone[$0] * Float(count - $0) / Float(count) }
        var layer = plainLayer(attackSeconds: 0.002, releaseSeconds: 0.01)
        layer.isOneShot = true
        return try SamplerProgram(layers: [layer], zones: [SamplerZone(waveform: SamplerWaveform(channels: [samples], sampleRate: rate), rootKey: 69)],
                                  globals: SamplerGlobals(gainDecibels: -12))
    }

    func padAndDrums() throws -> SamplerInstrument {
        let bank = ProgramBank(programs: [sine(440, releaseSeconds: 1), try drum()], names: ["pad", "kit"],
                               table: [0: [.sampler(0)], 128: [.sampler(1)]])
        let s = sampler(bank, maxVoices: 6)
        s.polyphonyLimit = 4
        return s
    }

    /// A held 3-note pad on channel 1 survives 20 drum hits on channel 10 with a 4-voice budget:
    /// each new hit steals a finished (released) hit, never a pad note.
    @Test func heldPadSurvivesABurstOfDrumHits() throws {
        let s = try padAndDrums()
        var events = [At(0, on(0, 57)), At(0, on(0, 61)), At(0, on(0, 64))]
        for hit in 0..<20 {
            events += [At(4_800 + hit * 4_800, on(9, UInt8(72 + hit % 5))), At(4_800 + hit * 4_800 + 480, off(9, UInt8(72 + hit % 5)))]
        }
        let out = render(s, frames: 110_000, events: events)
        for key in [57.0, 61, 64] {
            let f = Measure.noteFrequency(key)
            let start = Measure.amplitude(out.left[0..<4_800], at: f, sampleRate: rate)
            let end = Measure.amplitude(out.left[100_000...], at: f, sampleRate: rate)
            #expect(start > 0.02, "level floor")
            #expect(abs(Measure.decibels(end / start)) < 0.5, "pad note \(key) still sounds")
        }
        Measure.expectNoClick(out.left)
    }

    /// Budget 4, a 4-note pad held, then two drum hits 10 ms apart: both hits steal pad notes (the
    /// oldest); the second never cuts the first, which is under 50 ms old.
    @Test func aJustStartedDrumHitIsNotStolenToKeepAnOlderPad() throws {
        let s = try padAndDrums()
        let out = render(s, frames: 14_400, events: [
            At(0, on(0, 50)), At(1, on(0, 52)), At(2, on(0, 55)), At(3, on(0, 59)),
            At(4_800, on(9, 72)), At(4_810, off(9, 72)), At(5_280, on(9, 76)),
        ])
        let window = out.left[6_480..<9_600]
        #expect(Measure.amplitude(window, at: Measure.noteFrequency(72), sampleRate: rate) > 0.05, "first hit still sounds")
        #expect(Measure.amplitude(window, at: Measure.noteFrequency(76), sampleRate: rate) > 0.05, "second hit sounds")
        #expect(Measure.amplitude(window, at: Measure.noteFrequency(50), sampleRate: rate) < 1e-3, "oldest pad note stolen")
        #expect(Measure.amplitude(window, at: Measure.noteFrequency(52), sampleRate: rate) < 1e-3, "next oldest stolen")
        #expect(Measure.amplitude(window, at: Measure.noteFrequency(59), sampleRate: rate) > 0.02, "newest pad note kept")
        #expect(s.activeVoiceCount == 4)
    }

    /// Voices are counted per part.
    @Test func voiceCountsArePerPart() {
        let s = sampler(ProgramBank.single(sine(440)))
        _ = render(s, frames: 4_800, events: [At(0, on(0, 60)), At(0, on(0, 64)), At(0, on(6, 67))])
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 16)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0, count: 16)
        s.addVoiceCounts(to: counts)
        #expect(Array(UnsafeBufferPointer(start: counts, count: 16)) == [2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    /// Sostenuto pressed while a key is down and lifted while it is still down: the key's later
    /// note-off releases the note (the latch ends with the pedal). Found by the 1,000,000-event flood.
    @Test func sostenutoLiftedBeforeTheKeyLeavesNoStuckNote() {
        let out = render(sampler(ProgramBank.single(sine(440))), frames: 24_000, events: [
            At(0, on(0, 69)), At(2_400, cc(0, MIDIController.sostenutoPedal, 127)),
            At(4_800, cc(0, MIDIController.sostenutoPedal, 0)), At(9_600, off(0, 69)),
        ])
        #expect(Measure.rms(out.left[7_200..<9_600]) > 0.001, "sounding while the key is down")
        #expect(Measure.peak(out.left[19_200...]) < 1e-4, "released by its note-off (0.05 s release)")
    }
}

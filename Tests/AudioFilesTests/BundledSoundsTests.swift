import AudioFiles
import AudioTestSupport
import Foundation
import Testing

/// Checks the committed `Sounds/` content that `make-sounds` generates: formats, exact lengths,
/// root keys, exactly periodic loops, pitch, and seams without clicks.
@Suite struct BundledSoundsTests {
    static let soundsDirectory: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/AudioFilesTests/<this file>
        return parts.joined(separator: "/") + "/Sounds"
    }()

    /// A loop's pitch is made exact to ≈ 0.01 cent by choosing its length; allow 0.1 cent.
    let pitchToleranceCents = 0.1

    private func load(_ name: String) throws -> DecodedAudio {
        try AudioFileReader.read(path: Self.soundsDirectory + "/" + name)
    }

    /// Largest third difference across the wrap from `end − 1` to `start` (what a looping player
    /// hears), next to the largest anywhere inside the loop.
    private func seam(_ x: [Float], start: Int, end: Int) -> (seam: Double, inside: Double) {
        let joined = Array(x[(end - 8)..<end] + x[start..<(start + 8)])
        return (Measure.maxDiscontinuity(joined), Measure.maxDiscontinuity(x[start..<end]))
    }

    @Test func beatLoopIsTwoBarsAt120BPMAndSeamless() throws {
        let beat = try load("beat.wav")
        #expect(beat.formatDescription == "WAV PCM 16-bit, 48000 Hz, mono")
        #expect(beat.frameCount == 192_000)
        let measured = seam(beat.channels[0], start: 0, end: beat.frameCount)
        #expect(measured.seam <= measured.inside)
        #expect(Measure.peak(beat.channels[0]) > 0.5)
    }

    @Test func guitarLoopIsStereo24BitAndSeamless() throws {
        let guitar = try load("guitar.wav")
        #expect(guitar.formatDescription == "WAV PCM 24-bit, 44100 Hz, stereo")
        #expect(guitar.frameCount == 176_400)
        for channel in guitar.channels {
            let measured = seam(channel, start: 0, end: guitar.frameCount)
            #expect(measured.seam <= measured.inside)
            // The wrap carries the last strum's ring into the start: the first sample continues the last.
            #expect(abs(Double(channel[0] - channel[guitar.frameCount - 1])) < 0.02)
        }
        #expect(guitar.channels[0] != guitar.channels[1])
    }

    @Test func leadHasRootKeyAndAnExactlyPeriodicSustainLoop() throws {
        let lead = try load("lead.aif")
        #expect(lead.formatDescription == "AIFF PCM 16-bit, 44100 Hz, mono")
        #expect(lead.metadata.rootKey == 60)
        let loop = try #require(lead.metadata.loops.first)
        try expectPeriodicLoop(lead.channels[0], loop: loop, sampleRate: 44_100, note: 60)
        #expect(abs(lead.durationSeconds - 2) < 0.1)
    }

    @Test(arguments: [48, 60, 72])
    func keysSoftAndHardShareRootLoopAndPitch(root: Int) throws {
        let soft = try load("Keys/keys-\(root)-soft.wav")
        let hard = try load("Keys/keys-\(root)-hard.wav")
        for sample in [soft, hard] {
            #expect(sample.formatDescription == "WAV PCM 16-bit, 48000 Hz, mono")
            #expect(sample.metadata.rootKey == root)
            let loop = try #require(sample.metadata.loops.first)
            try expectPeriodicLoop(sample.channels[0], loop: loop, sampleRate: 48_000, note: root)
        }
        // Soft is quieter and darker: lower level, and less 4th harmonic relative to the fundamental.
        let frequency = Measure.noteFrequency(Double(root))
        let region = 48_000..<96_000
        #expect(Measure.decibels(Measure.rms(hard.channels[0][region])) - Measure.decibels(Measure.rms(soft.channels[0][region])) > 3)
        func brightness(_ x: [Float]) -> Double {
            Measure.amplitude(x[region], at: 4 * frequency, sampleRate: 48_000) / Measure.amplitude(x[region], at: frequency, sampleRate: 48_000)
        }
        #expect(brightness(soft.channels[0]) < 0.7 * brightness(hard.channels[0]))
    }

    /// The General MIDI melodic samples: `<folder>/<prefix>-<root>.wav`, 44.1 kHz 16-bit mono, root key
    /// in `smpl`, and (except the guitar, which rings out once) an exactly periodic sustain loop.
    /// The tone families (make-sounds' `ToneFamilies`) loop as the bass and strings do.
    static let families: [(folder: String, roots: [Int])] = [
        ("Piano", [48, 60, 72]), ("Mallet", [60, 72, 84]), ("Bell", [60, 72, 84]), ("Pluck", [48, 60, 72]), ("Brass", [48, 60, 72]),
        ("Reed", [48, 60, 72]), ("Clarinet", [48, 60, 72]), ("Flute", [60, 72, 84]), ("Saw", [48, 60, 72]), ("Square", [48, 60, 72]),
        ("Pad", [48, 60, 72]), ("Voice", [48, 60, 72]), ("Membrane", [36, 48, 60]), ("Overdrive", [40, 52, 64]),
    ]
    static let gmSamples: [(file: String, root: Int, looped: Bool)] =
        [31, 43, 55].map { ("Bass/bass-\($0).wav", $0, true) } + [45, 57, 69].map { ("Guitar/guitar-\($0).wav", $0, false) }
        + [48, 60, 72].map { ("Strings/strings-\($0).wav", $0, true) } + [48, 60, 72].map { ("Organ/organ-\($0).wav", $0, true) }
        + families.flatMap { family in family.roots.map { ("\(family.folder)/\(family.folder.lowercased())-\($0).wav", $0, true) } }

    /// The noise family's one sample: a seamless one-second loop of broadband noise (no pitch to check).
    @Test func noiseLoopsSeamlessly() throws {
        let audio = try load("Noise/noise-60.wav")
        let loop = try #require(audio.metadata.loops.first)
        let x = audio.channels[0]
        #expect(x[loop.endFrame] == x[loop.startFrame] && loop.lengthFrames > 40_000)
        let measured = seam(x, start: loop.startFrame, end: loop.endFrame)
        #expect(measured.seam <= measured.inside + 1e-6 && Measure.rms(x[loop.startFrame..<loop.endFrame]) > 0.1)
    }

    @Test(arguments: gmSamples)
    func gmSampleHasRootKeyAndSeamlessLoop(sample: (file: String, root: Int, looped: Bool)) throws {
        let audio = try load(sample.file)
        #expect(audio.formatDescription == "WAV PCM 16-bit, 44100 Hz, mono")
        #expect(audio.metadata.rootKey == sample.root)
        let x = audio.channels[0]
        if sample.looped {
            let loop = try #require(audio.metadata.loops.first)
            try expectPeriodicLoop(x, loop: loop, sampleRate: 44_100, note: sample.root, minimumSeconds: 0.15)
            #expect(Measure.rms(x[loop.startFrame..<loop.endFrame]) > 0.1, "level floor: the loop sounds")
        } else {
            #expect(audio.metadata.loops.isEmpty)
            // A plucked string: in tune within 1 cent while it rings, and silent at its end.
            let expected = Measure.noteFrequency(Double(sample.root))
            let frequency = try #require(Measure.frequency(x[4_410..<30_000], sampleRate: 44_100, guess: expected))
            #expect(abs(Measure.cents(frequency, relativeTo: expected)) < 1)
            #expect(abs(x.last ?? 1) <= 1.0 / 32768 && Measure.rms(x[4_410..<30_000]) > 0.1)
        }
    }

    /// The drum kits' pieces: 16-bit mono one-shots at 24, 32 or 48 kHz (by how high they reach),
    /// each ending in exact silence.
    @Test func drumSamplesAreOneShotsEndingInSilence() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.soundsDirectory + "/Drums").filter { $0.hasSuffix(".wav") }
        #expect(files.count == 87)
        for file in files {
            let audio = try load("Drums/" + file)
            #expect(["WAV PCM 16-bit, 24000 Hz, mono", "WAV PCM 16-bit, 32000 Hz, mono", "WAV PCM 16-bit, 48000 Hz, mono"].contains(
                audio.formatDescription), "\(file)")
            #expect(audio.metadata.loops.isEmpty && audio.metadata.rootKey != nil, "\(file)")
            #expect(abs(audio.channels[0].last ?? 1) <= 1.0 / 32768 && Measure.peak(audio.channels[0]) > 0.8, "\(file)")
        }
    }

    /// Cold start and the repository matter: the General MIDI sounds together stay under 8.5 MB.
    @Test func gmSoundsFitTheSizeBudget() throws {
        var bytes = 0
        for folder in ["Bass", "Guitar", "Strings", "Organ", "Drums", "Noise"] + Self.families.map(\.folder) {
            let directory = Self.soundsDirectory + "/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: directory) {
                bytes += (try FileManager.default.attributesOfItem(atPath: directory + "/" + file)[.size] as? Int) ?? 0
            }
        }
        #expect(bytes > 5_000_000 && bytes <= 8_500_000, "\(bytes) bytes")
    }

    private func expectPeriodicLoop(_ x: [Float], loop: SampleLoop, sampleRate: Double, note: Int, minimumSeconds: Double = 0.5) throws {
        #expect(loop.startFrame > 0 && loop.endFrame <= x.count)
        #expect(loop.lengthFrames > Int(sampleRate * minimumSeconds))
        // Exactly periodic: the frame after the loop end repeats the loop start bit for bit, and the
        // next few within the 16-bit step (the release fade starts there).
        #expect(x[loop.endFrame] == x[loop.startFrame])
        for offset in 1..<4 { #expect(abs(x[loop.endFrame + offset] - x[loop.startFrame + offset]) <= 1.0 / 32768) }
        let measured = seam(x, start: loop.startFrame, end: loop.endFrame)
        #expect(measured.seam <= measured.inside + 1e-6)
        let expected = Measure.noteFrequency(Double(note))
        let region = x[loop.startFrame..<loop.endFrame]
        let frequency = try #require(Measure.frequency(region, sampleRate: sampleRate, guess: expected))
        #expect(abs(Measure.cents(frequency, relativeTo: expected)) < pitchToleranceCents)
    }
}

import AudioFiles
import Foundation
import MemberwiseInit

/// Renders a MIDI file through FluidSynth and through AudioGraph with the same font, reverb and
/// chorus off on both sides, unity gain on both (each side's gain is one linear factor on every
/// voice; unity keeps quiet notes further above the measurements' floors), 44.1 kHz float, and
/// times each (wall clock). FluidSynth: `fluidsynth -ni -R 0 -C 0 -g 1.0 -r 44100 -O float -F OUT
/// FONT MIDI`; AudioGraph: `audiograph render --soundfont FONT --soundfont-gain 1 --midi MIDI` with
/// the sends and the limiter off. Control thread.
@PublicInit
public struct FidelityRenders {
    public var audiograph: String
    public var fluidsynth: String = "fluidsynth"
    public var directory: String

    public struct Render {
        public var left: [Float]
        public var right: [Float]
        public var seconds: Double
    }

    /// FluidSynth's render at 44.1 kHz, or with `oversampled` at 88.2 kHz (FluidSynth 2.3 goes up to 96 kHz) brought down to 44.1 kHz
    /// by sox (`rate -v`): FluidSynth without its aliasing, which our band-limited transposition
    /// does not have either, so levels compare like with like (`aliasing` shows the aliasing apart).
    /// Oversampled, FluidSynth's envelope segments round to whole 64-frame blocks of 88.2 kHz, not
    /// of 44.1 kHz as in ours: a modulation envelope's 1 ms decay is 0 blocks at 44.1 kHz (it holds
    /// its peak) and 1 block at 88.2 kHz (it falls), so the note comparison uses 44.1 kHz.
    public func fluidSynth(font: String, midi: String, name: String, oversampled: Bool = true) throws -> Render {
        let out = "\(directory)/\(name)-fluidsynth.wav"
        guard oversampled else {
            return try run(fluidsynth, ["-ni", "-R", "0", "-C", "0", "-g", "1.0", "-r", "44100", "-O", "float", "-F", out, font, midi], output: out)
        }
        let high = "\(directory)/\(name)-fluidsynth-88k.wav"
        var render = try run(fluidsynth, ["-ni", "-R", "0", "-C", "0", "-g", "1.0", "-r", "88200", "-O", "float", "-F", high, font, midi], output: nil)
        let seconds = render.seconds
        render = try run("sox", [high, "-e", "floating-point", "-b", "32", out, "rate", "-v", "44100"], output: out)
        render.seconds = seconds
        return render
    }

    public func ours(font: String, midi: String, name: String, extra: [String] = []) throws -> Render {
        let out = "\(directory)/\(name)-audiograph.wav"
        return try run(
            audiograph,
            ["render", "--soundfont", font, "--soundfont-gain", "1", "--midi", midi, "--out", out, "--rate", "44100", "--set", "fx.enabled=off", "--set",
             "master.limiter.enabled=off"] + extra, output: out)
    }

    private func run(_ tool: String, _ arguments: [String], output: String?) throws -> Render {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.contains("/") ? tool : "/usr/bin/\(tool)")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        guard process.terminationStatus == 0 else { throw FidelityError("\(tool) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))") }
        guard let output else { return Render(left: [], right: [], seconds: seconds) }
        let audio = try AudioFileReader.read(path: output)
        guard audio.channels.count == 2 else { throw FidelityError("\(output): \(audio.channels.count) channels") }
        return Render(left: audio.channels[0], right: audio.channels[1], seconds: seconds)
    }
}

public struct FidelityError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

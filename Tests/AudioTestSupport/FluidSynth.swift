/// FluidSynth as the reference player: what it renders of a MIDI file, dry (no reverb, no
/// chorus), at gain 1 and 48 kHz float, so its levels compare with AudioGraph's own render.
public enum FluidSynth {
    public static let executable = "/usr/bin/fluidsynth"

    /// Renders `midi` with the SoundFont `font` into the WAV file `wav`.
    public static func render(midi: String, font: String, to wav: String) throws {
        _ = try Subprocess.run(
            executable, ["-ni", "-q", "-R", "0", "-C", "0", "-g", "1.0", "-r", "48000", "-O", "float", "-F", wav, font, midi])
    }
}

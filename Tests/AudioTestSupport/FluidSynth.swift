/// FluidSynth as the reference player: what it renders of a MIDI file, as float (nothing clipped),
/// by default dry (no reverb, no chorus), at gain 1 and 48 kHz, so its levels compare with
/// AudioGraph's own render.
public enum FluidSynth {
    public static let executable = "/usr/bin/fluidsynth"
    /// Dry, gain 1, 48 kHz; `[]` renders with FluidSynth's own defaults.
    public static let dry = ["-R", "0", "-C", "0", "-g", "1.0", "-r", "48000"]

    /// Renders `midi` with the SoundFont `font` into the WAV file `wav`.
    public static func render(midi: String, font: String, to wav: String, settings: [String] = dry) throws {
        _ = try Subprocess.run(executable, ["-ni", "-q"] + settings + ["-O", "float", "-F", wav, font, midi])
    }
}

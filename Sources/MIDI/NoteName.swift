#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Note names in scientific pitch notation: C4 = 60 (middle C), A4 = 69 = 440 Hz, C-1 = 0, G9 = 127.
/// Pure functions, callable from any thread (they allocate Strings, so not from the render thread).
public enum NoteName {
    private static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
    private static let letterPitchClasses: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]

    /// Parses "C4", "F#3", "Bb2", "c-1", "E♭5" (case-insensitive letter; `#`/`♯` sharp, `b`/`♭` flat,
    /// repeatable) or a plain note number "60". Returns nil for anything else or a note outside 0…127.
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingWhitespace()
        if let number = Int(trimmed) { return (0...127).contains(number) ? number : nil }
        var characters = Substring(trimmed)
        guard let letter = characters.first?.uppercased().first, let pitchClass = letterPitchClasses[letter] else {
            return nil
        }
        characters = characters.dropFirst()
        var accidental = 0
        while let next = characters.first, "#♯b♭".contains(next) {
            accidental += (next == "#" || next == "♯") ? 1 : -1
            characters = characters.dropFirst()
        }
        // Octaves -1…9 hold every MIDI note; a larger number (C9223372036854775807) must not overflow.
        guard !characters.isEmpty, let octave = Int(characters), (-2...10).contains(octave), abs(accidental) <= 24 else { return nil }
        let note = (octave + 1) * 12 + pitchClass + accidental
        return (0...127).contains(note) ? note : nil
    }

    /// "C4" for 60, "F#3" for 54, "C-1" for 0 (sharps, scientific octave numbers).
    public static func name(of note: Int) -> String {
        let octave = note >= 0 ? note / 12 - 1 : (note - 11) / 12 - 1
        let pitchClass = ((note % 12) + 12) % 12
        return sharpNames[pitchClass] + String(octave)
    }
}

/// Equal-tempered frequency in Hz of a (fractional) MIDI note: A4 = 69 = 440 Hz, 60 → 261.626 Hz.
/// Pure; any thread.
public func noteFrequency(_ note: Double) -> Double {
    440 * exp2((note - 69) / 12)
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

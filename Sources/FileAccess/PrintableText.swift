/// Text from outside (a file name, a key in a file, a value on a socket) made safe to print on a
/// terminal: control characters (C0 but newline and tab, DEL, C1) become `\u{1B}`-style escapes,
/// so an escape sequence hidden in a preset or a path cannot retitle the terminal, move the
/// cursor or hide the rest of a message.
public enum PrintableText {
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0, keepingNewlines: keepingNewlines) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar, keepingNewlines: keepingNewlines) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        if keepingNewlines && (scalar == "\n" || scalar == "\t") { return false }
        return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` holds a control character (tab and newline included).
    public static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { isControl($0, keepingNewlines: false) }
    }
}

/// Why the panel refused something, in one line the page shows as it is.
public struct PanelError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// Text from outside quoted in a message, cut to 60 characters and without control characters,
    /// so a hostile message gives one short line.
    public static func excerpt(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "?" : Character($0) })
        return clean.count > 60 ? String(clean.prefix(60)) + "…" : clean
    }
}

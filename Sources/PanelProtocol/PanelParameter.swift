/// One parameter as the page sees it: what the control is, its range and what its values are
/// called. The app fills these from the engine's parameter table; the panel validates against them
/// before anything reaches the instrument.
import MemberwiseInit

@PublicInit
public struct PanelParameter: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case continuous, integer, toggle, choice
    }

    public var name: String
    public var unit: String
    public var min: Double
    public var max: Double
    public var defaultValue: Double
    public var kind: Kind
    /// A choice's names, by index; empty otherwise.
    public var choices: [String] = []
    public var summary: String

    /// The value the instrument would store for `value`, or why it is refused.
    public func validate(_ value: Double) throws(PanelError) -> Double {
        guard value.isFinite else { throw PanelError("\(name) needs a finite number") }
        let v = kind == .continuous ? value : value.rounded()
        guard v >= min, v <= max else {
            throw PanelError("\(name) must be between \(Self.text(min)) and \(Self.text(max))\(unit.isEmpty ? "" : " \(unit)") (got \(Self.text(value)))")
        }
        return v
    }

    private static func text(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String((v * 1000).rounded() / 1000)
    }
}

import ArgumentParser

/// Every numeric option has a range, stated in its help as "(LOW…HIGH)" and checked in
/// `validate()` with one line naming the option, the range and what was given (NaN and infinity
/// included: `contains` is false for them). `NumericOptionTests` walks every command's options
/// and holds each to this.
enum OptionRange {
    static func check<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>, _ name: String, unit: String = "") throws {
        guard range.contains(value) else {
            let suffix = unit.isEmpty ? "" : " \(unit)"
            throw ValidationError("\(name) must be between \(text(range.lowerBound)) and \(text(range.upperBound))\(suffix) (got \(text(value)))")
        }
    }

    /// 86400 rather than 86400.0.
    static func text<Value>(_ value: Value) -> String {
        guard let number = value as? Double, number == number.rounded(), abs(number) < 1e15 else { return "\(value)" }
        return String(Int(number))
    }
}

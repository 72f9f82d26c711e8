import Synchronization

/// What kind of value a parameter holds, which decides how text is parsed and shown.
public enum ParameterKind: Sendable, Equatable {
    case continuous
    case integer
    /// 0 = off, 1 = on; accepts on/off, true/false, yes/no, 1/0.
    case toggle
    /// One of the named choices; stored as its index.
    case choice([String])
}

/// One adjustable value: a dotted name, its unit, range, default and what it does.
public struct ParameterDescriptor: Sendable, Equatable {
    public var name: String
    public var unit: String
    public var range: ClosedRange<Double>
    public var defaultValue: Double
    public var kind: ParameterKind
    public var summary: String

    public init(_ name: String, unit: String = "", range: ClosedRange<Double>, default defaultValue: Double,
                kind: ParameterKind = .continuous, summary: String) {
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
        self.kind = kind
        self.summary = summary
    }

    /// Text for a stored value: choice names, on/off, or the number with its unit.
    /// Any value, even one outside the range or not finite (error messages show what was given).
    public func format(_ value: Double) -> String {
        let suffix = unit.isEmpty ? "" : " \(unit)"
        switch kind {
        case .toggle: return value >= 0.5 ? "on" : "off"
        case .choice(let names):
            guard let index = Self.exactInteger(value.rounded()) else { return format3(value) }
            return names[min(max(index, 0), names.count - 1)]
        case .integer:
            return (Self.exactInteger(value.rounded()).map(String.init) ?? format3(value)) + suffix
        case .continuous:
            let whole = value == value.rounded() && abs(value) < 1e6 ? Self.exactInteger(value) : nil
            return (whole.map(String.init) ?? format3(value)) + suffix
        }
    }

    /// `Int(value)` without the trap: nil for NaN, infinities and magnitudes beyond ±2⁵³.
    static func exactInteger(_ value: Double) -> Int? {
        abs(value) <= 9_007_199_254_740_992 ? Int(exactly: value) : nil
    }

    /// Parses `text` and checks the range. The error says what is allowed.
    public func parse(_ whole: String) throws(ParameterError) -> Double {
        let t = whole.split(separator: " ").joined().lowercased()
        let text = ParameterError.excerpt(whole)
        let value: Double
        switch kind {
        case .toggle:
            switch t {
            case "on", "true", "yes", "1": value = 1
            case "off", "false", "no", "0": value = 0
            default: throw ParameterError("\(name) is on or off (got '\(text)')")
            }
        case .choice(let names):
            if let i = names.firstIndex(of: t) { value = Double(i) } else {
                throw ParameterError("\(name) is one of \(names.joined(separator: ", ")) (got '\(text)')")
            }
        case .continuous, .integer:
            guard let v = Double(t), v.isFinite else { throw ParameterError("\(name) needs a number\(unit.isEmpty ? "" : " in \(unit)") (got '\(text)')") }
            value = kind == .integer ? v.rounded() : v
        }
        guard range.contains(value) else {  // quoting what was given, not the value it was rounded to
            throw ParameterError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)) (got \(text)\(unit.isEmpty ? "" : " \(unit)"))")
        }
        return value
    }

    public func check(_ value: Double) throws(ParameterError) {
        guard range.contains(value) else {
            throw ParameterError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)) (got \(format(value)))")
        }
    }

    private func format3(_ v: Double) -> String {
        let scaled = (v * 1000).rounded() / 1000
        return scaled.isFinite ? "\(scaled)" : "\(v)"
    }
}

public struct ParameterError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// Text from outside quoted in a message: cut to 60 characters so a 64 kB request gives one line,
    /// control characters shown as `\u{1B}` so that none reaches a terminal.
    public static func excerpt(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        guard cut.unicodeScalars.contains(where: isControl) else { return cut }
        return cut.unicodeScalars.map { isControl($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined()
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
}

/// The table of every parameter with its current value, made by `ParameterTableBuilder.seal()`:
/// its shape never changes. Values live in atomics: the control thread writes them (CLI, socket,
/// instrument file), the render thread reads them at block start and may also write them
/// (MIDI-mapped controls), so status always shows the live value. Any thread.
public final class ParameterTable: Sendable {
    public let descriptors: [ParameterDescriptor]
    private let indexByName: [String: Int]
    /// Double bit patterns, one per descriptor.
    private let cells: AtomicCells
    /// Bumped after every store, so the render thread can tell in one load whether anything changed.
    private let changes = Atomic<UInt64>(0)

    init(descriptors: [ParameterDescriptor]) {
        self.descriptors = descriptors
        indexByName = Dictionary(uniqueKeysWithValues: descriptors.enumerated().map { ($1.name, $0) })
        cells = AtomicCells(count: descriptors.count, repeating: 0)
        for (i, d) in descriptors.enumerated() { cells.store(i, d.defaultValue) }
    }

    /// Any thread. Differs from the last value read whenever a parameter has been stored since;
    /// the values stored before the bump are visible to whoever sees it (release/acquire).
    public var generation: UInt64 { @_noAllocation get { changes.load(ordering: .acquiring) } }

    public func index(of name: String) -> Int? { indexByName[name] }

    /// Any thread. Relaxed: each value is independent and only needs to arrive eventually.
    @_noAllocation
    public func value(_ index: Int) -> Double { cells.loadDouble(index) }

    /// Any thread; the value must already be valid (render-side writes from MIDI mappings).
    @_noAllocation
    public func store(_ index: Int, _ value: Double) {
        cells.store(index, value)
        changes.wrappingAdd(1, ordering: .releasing)
    }

    /// Control thread: sets `name` from text, with validation.
    public func set(_ name: String, text: String) throws(ParameterError) {
        guard let i = indexByName[name] else { throw unknown(name) }
        store(i, try descriptors[i].parse(text))
    }

    /// Control thread: sets `name` to a number, with validation.
    public func set(_ name: String, value: Double) throws(ParameterError) {
        guard let i = indexByName[name] else { throw unknown(name) }
        guard value.isFinite else { throw ParameterError("\(name) needs a finite number (got \(value))") }
        let v = descriptors[i].kind == .integer ? value.rounded() : value
        try descriptors[i].check(v)
        store(i, v)
    }

    /// Parses `name=value` (as given to `--set`) and applies it.
    public func apply(assignment: String) throws(ParameterError) {
        try apply(assignments: [assignment])
    }

    /// Control thread: validates every `name=value` first and applies them only if all are valid,
    /// so a request with one bad assignment changes nothing (`set a=1 b=bad` leaves `a` alone).
    public func apply(assignments: [String]) throws(ParameterError) {
        var parsed: [(index: Int, value: Double)] = []
        for assignment in assignments { parsed.append(try parse(assignment: assignment)) }
        for (index, value) in parsed { store(index, value) }
    }

    /// `name=value` → the parameter's index and its checked value. A control character anywhere
    /// (a newline would end a control-socket request halfway) is refused, not cut at.
    public func parse(assignment: String) throws(ParameterError) -> (index: Int, value: Double) {
        if assignment.unicodeScalars.contains(where: ParameterError.isControl) {
            throw ParameterError("'\(ParameterError.excerpt(assignment))' holds a control character; give name=value on one line")
        }
        guard let eq = assignment.firstIndex(of: "=") else {
            throw ParameterError("expected name=value, got '\(ParameterError.excerpt(assignment))'")
        }
        let name = String(assignment[..<eq])
        guard let index = indexByName[name] else { throw unknown(name) }
        return (index, try descriptors[index].parse(String(assignment[assignment.index(after: eq)...])))
    }

    public func formattedValue(_ index: Int) -> String { descriptors[index].format(value(index)) }

    private func unknown(_ name: String) -> ParameterError {
        let near = descriptors.map(\.name).filter { $0.hasPrefix(name.split(separator: ".").first.map(String.init) ?? name) }
        let hint = near.isEmpty ? " (see `audiograph params`)" : "; did you mean one of: \(near.prefix(6).joined(separator: ", "))"
        return ParameterError("unknown parameter '\(ParameterError.excerpt(name))'\(hint)")
    }
}

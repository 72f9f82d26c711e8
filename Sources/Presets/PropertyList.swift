/// A parsed Apple property list value (the subset of plist XML that `.aupreset` files use).
///
/// Dictionaries keep their entries in file order (AU writes keys sorted, hand-made files do not; a
/// report that lists keys should show them as written). Recursion goes through arrays, so the enum
/// needs no `indirect` storage.
///
/// Pure data: any thread may use it.
import MemberwiseInit

public enum PropertyList: Sendable, Equatable {
    case dictionary([Entry])
    case array([PropertyList])
    case integer(Int64)
    case real(Double)
    case string(String)
    case bool(Bool)
    case data([UInt8])
    /// `<date>` kept as its ISO 8601 text; nothing in a preset needs it as a time value.
    case date(String)

    /// One `<key>`/value pair of a dictionary.
    @PublicInit
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: PropertyList
    }
}

extension PropertyList {
    /// The value of the first entry named `key`, if this is a dictionary that has one.
    public subscript(key: String) -> PropertyList? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The entries, if this is a dictionary.
    public var dictionaryEntries: [Entry]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayElements: [PropertyList]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The number as a `Double`, accepting `<integer>` as well as `<real>`: real presets swap the
    /// two (`<integer>` stage times, `<real>` destination codes).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The number as an integer, accepting a `<real>` whose value is integral and in range
    /// (e.g. `<real>818937856</real>`); `nil` for fractional or non-finite reals.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var dataValue: [UInt8]? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The plist element name of this value (`dict`, `integer`, …), for error messages.
    public var typeName: String {
        switch self {
        case .dictionary: return "dict"
        case .array: return "array"
        case .integer: return "integer"
        case .real: return "real"
        case .string: return "string"
        case .bool: return "bool"
        case .data: return "data"
        case .date: return "date"
        }
    }
}

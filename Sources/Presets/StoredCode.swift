/// An enum a preset stores as an integer code: one table names the known codes, and a code the
/// table does not name is kept as `unknown(code)`, so the decoder can warn and a file round-trips.
public protocol StoredCode: Equatable, Sendable {
    /// Every case but `unknown`, with the code it is stored as.
    static var namedCodes: [(value: Self, code: Int)] { get }
    static func unknown(_ code: Int) -> Self
    /// The code of an `unknown` case; nil for a named one.
    var unknownCode: Int? { get }
}

extension StoredCode {
    public init(rawValue: Int) {
        self = Self.namedCodes.first { $0.code == rawValue }?.value ?? .unknown(rawValue)
    }

    /// The stored code: the table's for a named case, the kept one for `unknown`.
    public var rawValue: Int {
        if let code = unknownCode { return code }
        guard let named = Self.namedCodes.first(where: { $0.value == self }) else {
            preconditionFailure("\(Self.self).namedCodes lacks \(self)")
        }
        return named.code
    }
}

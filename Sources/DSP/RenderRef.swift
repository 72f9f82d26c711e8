/// A reference the render path calls through without retaining or releasing the object: the
/// compiler's real-time checks (`@_noAllocation`) count every call on a class instance loaded from
/// another object's stored property as a retain and a release. Unowned and unmanaged: whoever
/// makes one keeps a strong reference to the object for as long as the `RenderRef` is used (the
/// engine holds its units in `AudioEngine.owners`).
public struct RenderRef<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    @inlinable
    public init(_ object: Object) { reference = Unmanaged.passUnretained(object) }

    /// The object at `address` (`Unmanaged.toOpaque()`, e.g. published through an atomic), unretained.
    @inlinable
    public init(address: UnsafeMutableRawPointer) { reference = Unmanaged.fromOpaque(address) }

    /// Calls `body` with the object, borrowed for the call.
    @inlinable @inline(__always)
    public func callAsFunction<Result>(_ body: (Object) -> Result) -> Result { reference._withUnsafeGuaranteedRef(body) }
}

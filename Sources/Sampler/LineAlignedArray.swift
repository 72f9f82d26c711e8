/// Elements each on cache lines of their own, for state that different threads write at once:
/// the voices (groups rendered by different workers, every chunk writing a voice) and the
/// workers' render contexts (each refilled per chunk). Packed, two elements would share the
/// line between them, and each write would pull it from the other core (false sharing).
/// Allocated and freed by its owner (control thread); plain memory for the render thread and
/// its helpers.
struct LineAlignedArray<Element> {
    private let base: UnsafeMutableRawPointer
    private let stride: Int
    let count: Int
    private static var lineBytes: Int { 64 }

    /// Allocates `count` elements, not initialized yet (`initialize(repeating:)`).
    init(count: Int) {
        self.count = count
        stride = (MemoryLayout<Element>.stride + Self.lineBytes - 1) / Self.lineBytes * Self.lineBytes
        base = .allocate(byteCount: max(1, count) * stride, alignment: max(Self.lineBytes, MemoryLayout<Element>.alignment))
    }

    init(repeating element: Element, count: Int) {
        self.init(count: count)
        initialize(repeating: element)
    }

    func initialize(repeating element: Element) {
        for i in 0..<count { pointer(i).initialize(to: element) }
    }

    /// Deinitializes the elements and frees the memory.
    func deallocate() {
        for i in 0..<count { pointer(i).deinitialize(count: 1) }
        base.deallocate()
    }

    @inline(__always)
    func pointer(_ i: Int) -> UnsafeMutablePointer<Element> {
        (base + i &* stride).assumingMemoryBound(to: Element.self)
    }

    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(pointer(i)) }
        @inline(__always) nonmutating unsafeMutableAddress { pointer(i) }
    }
}

/// What the instrument's SoundFont voices read per part beyond the render context: poly
/// pressure by key (the render thread writes it on poly-pressure messages). Allocated by the
/// instrument's `init` (control thread), freed by its `deinit`; plain pointers, so the render
/// thread reads it freely.
struct SF2PartMemory {
    private let polyPressure: UnsafeMutablePointer<UInt8>
    private let parts: Int

    init(parts: Int) {
        self.parts = parts
        polyPressure = .allocate(capacity: parts * 128)
        polyPressure.initialize(repeating: 0, count: parts * 128)
    }

    func deallocate() { polyPressure.deallocate() }

    /// Part `channel`'s poly pressure by key.
    func polyPressure(channel: Int) -> UnsafeMutablePointer<UInt8> { polyPressure + 128 * (channel % parts) }
}

import DSP

/// Memory the instrument's SoundFont voices use, per part: poly pressure by key, the reverb and
/// chorus send sums of one span, and whether anything was sent in the chunk being rendered.
/// Allocated by the instrument's `init` (control thread), freed by its `deinit`; plain pointers,
/// so the render thread reads it freely.
struct SF2PartMemory {
    private let polyPressure: UnsafeMutablePointer<UInt8>
    /// Reverb left, reverb right, chorus left, chorus right: each parts × span frames.
    private let sendSums: UnsafeMutablePointer<Float>
    private let sent: UnsafeMutablePointer<Bool>
    private let spanFrames: Int
    private let parts: Int
    /// Each part's `sent` flag on a cache line of its own (parts may render on different threads).
    private static let sentStride = 64

    init(parts: Int, spanFrames: Int) {
        self.parts = parts
        self.spanFrames = spanFrames
        polyPressure = .allocate(capacity: parts * 128)
        polyPressure.initialize(repeating: 0, count: parts * 128)
        sendSums = .allocate(capacity: 4 * parts * spanFrames)
        sendSums.initialize(repeating: 0, count: 4 * parts * spanFrames)
        sent = .allocate(capacity: parts * Self.sentStride)
        sent.initialize(repeating: false, count: parts * Self.sentStride)
    }

    func deallocate() {
        polyPressure.deallocate()
        sendSums.deallocate()
        sent.deallocate()
    }

    /// Part `channel`'s poly pressure by key (render thread writes it on poly-pressure messages).
    func polyPressure(channel: Int) -> UnsafeMutablePointer<UInt8> { polyPressure + 128 * (channel & 15) }

    /// A fresh context for part `channel` (its controller-dependent fields and send sums are
    /// set per chunk); `generatorScratch` is the rendering worker's.
    func context(channel: Int, minimumNoteFrames: Int, generatorScratch: UnsafeMutablePointer<Double>) -> SF2ChannelContext {
        let sums = sends(channel: channel, offset: 0, frames: spanFrames)
        return SF2ChannelContext(
            polyPressure: UnsafePointer(polyPressure(channel: channel % parts)), generatorScratch: generatorScratch,
            minimumNoteFrames: minimumNoteFrames, reverb: sums.reverb, chorus: sums.chorus, sent: sent + channel % parts * Self.sentStride)
    }

    /// Part `channel`'s reverb and chorus send sums for `frames` from `offset` of the span.
    @_noAllocation
    func sends(channel: Int, offset: Int, frames: Int) -> (reverb: StereoBlock, chorus: StereoBlock) {
        let stride = parts * spanFrames
        let base = sendSums + (channel % parts) * spanFrames + offset
        return (StereoBlock(left: base, right: base + stride, frames: frames), StereoBlock(left: base + 2 * stride, right: base + 3 * stride, frames: frames))
    }
}

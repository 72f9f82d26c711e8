import DSP

/// Memory the instrument's SoundFont voices use, per part: poly pressure by key, the reverb and
/// chorus send sums of one chunk, whether anything was sent, and one scratch array for
/// evaluating modulators (voices evaluate one at a time). Allocated by the instrument's `init`
/// (control thread), freed by its `deinit`; plain pointers, so the render thread reads it freely.
struct SF2PartMemory {
    private let polyPressure: UnsafeMutablePointer<UInt8>
    private let generatorScratch: UnsafeMutablePointer<Double>
    /// Reverb left, reverb right, chorus left, chorus right: each parts × chunk frames.
    private let sendSums: UnsafeMutablePointer<Float>
    private let sent: UnsafeMutablePointer<Bool>
    private let chunkFrames: Int
    private let parts: Int

    init(parts: Int, chunkFrames: Int) {
        self.parts = parts
        self.chunkFrames = chunkFrames
        polyPressure = .allocate(capacity: parts * 128)
        polyPressure.initialize(repeating: 0, count: parts * 128)
        generatorScratch = .allocate(capacity: SF2Generator.count)
        generatorScratch.initialize(repeating: 0, count: SF2Generator.count)
        sendSums = .allocate(capacity: 4 * parts * chunkFrames)
        sendSums.initialize(repeating: 0, count: 4 * parts * chunkFrames)
        sent = .allocate(capacity: parts)
        sent.initialize(repeating: false, count: parts)
    }

    func deallocate() {
        polyPressure.deallocate()
        generatorScratch.deallocate()
        sendSums.deallocate()
        sent.deallocate()
    }

    /// Part `channel`'s poly pressure by key (render thread writes it on poly-pressure messages).
    func polyPressure(channel: Int) -> UnsafeMutablePointer<UInt8> { polyPressure + 128 * (channel & 15) }

    /// A fresh context for part `channel` (its controller-dependent fields filled per chunk).
    func context(channel: Int, minimumNoteFrames: Int) -> SF2ChannelContext {
        let c = channel % parts
        let stride = parts * chunkFrames
        let base = sendSums + c * chunkFrames
        return SF2ChannelContext(
            polyPressure: UnsafePointer(polyPressure(channel: c)), generatorScratch: generatorScratch, minimumNoteFrames: minimumNoteFrames,
            reverb: StereoBlock(left: base, right: base + stride, frames: chunkFrames),
            chorus: StereoBlock(left: base + 2 * stride, right: base + 3 * stride, frames: chunkFrames), sent: sent + c)
    }
}

/// A view of planar stereo audio: two channel pointers and a frame count. It owns no memory;
/// `StereoBuffer` owns the storage. Passing blocks around costs nothing on the render thread.
public struct StereoBlock {
    public var left: UnsafeMutablePointer<Float>
    public var right: UnsafeMutablePointer<Float>
    public var frames: Int

    @inlinable
    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        self.left = left
        self.right = right
        self.frames = frames
    }

    /// The sub-block `[start, start + count)`. Used to split a block at event frames.
    @inlinable
    @_noAllocation
    public func slice(from start: Int, count: Int) -> StereoBlock {
        StereoBlock(left: left + start, right: right + start, frames: count)
    }

    @inlinable
    @_noAllocation
    public func clear() {
        left.update(repeating: 0, count: frames)
        right.update(repeating: 0, count: frames)
    }

    @inlinable
    @_noAllocation
    public func copy(from source: StereoBlock) {
        // Raw copies: `update(from:)` is generic over the element's lifetime, which the
        // performance diagnostics count as a possible deallocation.
        UnsafeMutableRawPointer(left).copyMemory(from: source.left, byteCount: frames * MemoryLayout<Float>.stride)
        UnsafeMutableRawPointer(right).copyMemory(from: source.right, byteCount: frames * MemoryLayout<Float>.stride)
    }
}

/// Owned planar stereo storage, allocated once at prepare time (control thread).
public final class StereoBuffer {
    public let capacity: Int
    public let left: UnsafeMutablePointer<Float>
    public let right: UnsafeMutablePointer<Float>

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        left = .allocate(capacity: capacity)
        right = .allocate(capacity: capacity)
        left.initialize(repeating: 0, count: capacity)
        right.initialize(repeating: 0, count: capacity)
    }

    deinit {
        left.deallocate()
        right.deallocate()
    }

    /// A view of the first `frames` frames. Render-thread safe.
    @inlinable
    @_noAllocation
    public func block(frames: Int) -> StereoBlock {
        StereoBlock(left: left, right: right, frames: frames)
    }
}

extension UnsafeMutablePointer<Float> {
    /// Copies `count` floats from `source` (the regions may overlap): `update(from:count:)` as a raw
    /// copy, which the real-time checks accept (see `StereoBlock.copy`). Render-thread safe.
    @inlinable
    @_noAllocation
    public func copyFloats(from source: UnsafePointer<Float>, count: Int) {
        UnsafeMutableRawPointer(self).copyMemory(from: source, byteCount: count * MemoryLayout<Float>.stride)
    }
}

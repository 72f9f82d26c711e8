/// A mono delay line: a power-of-two ring of samples with integer reads by age.
/// `reset()` is O(1): samples written before it read as silence, so a 2 s line can be
/// cleared on the render thread without a 400 KB memset.
/// Allocate on the control thread; every other method is render-thread safe.
public final class DelayLine {
    /// Largest age `read(age:)` accepts.
    public let maximumAgeFrames: Int
    @usableFromInline let storage: UnsafeMutablePointer<Float>
    @usableFromInline let mask: Int
    @usableFromInline var writeIndex = 0
    /// How many samples were written since the last reset (saturates at the ring size).
    @usableFromInline var validFrames = 0

    /// `maximumAgeFrames`: the oldest sample that must stay readable (e.g. 2 s × sample rate).
    public init(maximumAgeFrames: Int) {
        let maximumAge = max(1, maximumAgeFrames)
        self.maximumAgeFrames = maximumAge
        var size = 1
        while size < maximumAge + 1 { size <<= 1 }
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        mask = size - 1
    }
    deinit { storage.deallocate() }

    /// Appends one sample. Render-thread safe.
    @inlinable
    @_noAllocation
    public func write(_ sample: Float) {
        storage[writeIndex] = sample
        writeIndex = (writeIndex &+ 1) & mask
        if validFrames <= mask { validFrames &+= 1 }
    }

    /// The sample written `age` writes before the most recent one (age 0 = the most recent);
    /// silence for ages beyond what was written since `reset()`. `age` is clamped to
    /// `0...maximumAgeFrames`. Render-thread safe.
    @inlinable
    @_noAllocation
    public func read(age: Int) -> Float {
        let a = min(max(age, 0), maximumAgeFrames)
        if a >= validFrames { return 0 }
        return storage[(writeIndex &- 1 &- a) & mask]
    }

    /// Forgets everything written so far (O(1)). Render-thread safe.
    @_noAllocation
    public func reset() {
        validFrames = 0
    }
}

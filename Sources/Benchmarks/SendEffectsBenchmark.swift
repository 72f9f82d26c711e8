import DSP

#if canImport(Glibc)
import Glibc
#endif

/// What the send effects cost per block: the reverb and the chorus at their default settings on
/// a noise input, timed in this thread's CPU time (robust against other load on the machine).
/// Control thread (allocates); `audiograph bench fx` prints it, and `renderBlocks` is the body
/// to count instructions with valgrind --tool=callgrind.
public enum SendEffectsBenchmark {
    public struct Figures: Sendable {
        public var reverbNanosecondsPerBlock: Double
        public var chorusNanosecondsPerBlock: Double
        public var blockFrames: Int
        public var sampleRate: Double
        public var totalNanosecondsPerBlock: Double { reverbNanosecondsPerBlock + chorusNanosecondsPerBlock }
        /// The block's real-time duration, ns.
        public var budgetNanoseconds: Double { Double(blockFrames) / sampleRate * 1e9 }
    }

    /// Mean CPU time per block of each unit over `seconds` of audio.
    public static func run(seconds: Double = 4, sampleRate: Double = 48_000, blockFrames: Int = 64) -> Figures {
        let blocks = max(1, Int(seconds * sampleRate) / blockFrames)
        let fixture = Fixture(sampleRate: sampleRate, blockFrames: blockFrames)
        let reverb = cpuSeconds { fixture.render(blocks: blocks, reverb: true, chorus: false) }
        let chorus = cpuSeconds { fixture.render(blocks: blocks, reverb: false, chorus: true) }
        return Figures(reverbNanosecondsPerBlock: reverb * 1e9 / Double(blocks), chorusNanosecondsPerBlock: chorus * 1e9 / Double(blocks),
                       blockFrames: blockFrames, sampleRate: sampleRate)
    }

    /// Renders `blocks` blocks through the chosen units and nothing else (for callgrind: run with
    /// two block counts and subtract, so set-up cancels out).
    public static func renderBlocks(_ blocks: Int, sampleRate: Double = 48_000, blockFrames: Int = 64, reverb: Bool, chorus: Bool) {
        Fixture(sampleRate: sampleRate, blockFrames: blockFrames).render(blocks: blocks, reverb: reverb, chorus: chorus)
    }

    /// Both units and a send bus holding noise at −20 dBFS (the same block over and over).
    struct Fixture {
        let reverb: FeedbackDelayReverb
        let chorus: StereoChorus
        let send: StereoBuffer
        let output: StereoBuffer
        let blockFrames: Int

        init(sampleRate: Double, blockFrames: Int) {
            self.blockFrames = blockFrames
            reverb = FeedbackDelayReverb(sampleRate: sampleRate, maxFrames: blockFrames)
            chorus = StereoChorus(sampleRate: sampleRate, maxFrames: blockFrames)
            send = StereoBuffer(capacity: blockFrames)
            output = StereoBuffer(capacity: blockFrames)
            var s: UInt32 = 0x1234_5678
            for i in 0..<blockFrames {
                s ^= s << 13; s ^= s >> 17; s ^= s << 5
                send.left[i] = 0.1 * (Float(s >> 8) / Float(1 << 24) * 2 - 1)
                send.right[i] = send.left[(i * 7) % blockFrames]
            }
        }

        func render(blocks: Int, reverb useReverb: Bool, chorus useChorus: Bool) {
            let input = send.block(frames: blockFrames), out = output.block(frames: blockFrames)
            for _ in 0..<blocks {
                if useReverb { reverb.process(input: input, output: out) }
                if useChorus { chorus.process(input: input, output: out) }
            }
        }
    }

    static func cpuSeconds(_ body: () -> Void) -> Double {
        var a = timespec(), b = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b)
        return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) * 1e-9
    }
}

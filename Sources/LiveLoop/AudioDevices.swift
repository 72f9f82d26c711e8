import ALSAIO
import AudioFiles

/// Where the audio loop writes a period: an ALSA PCM, or the clock-paced null device (soak tests,
/// machines without a sound card).
protocol AudioOutput: AnyObject, SendableMetatype {
    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PCMTransferStatus
    /// Underruns so far.
    var xrunCount: Int { get }
    /// Lets go of the device now (after it was lost). Control thread.
    func close()
}

/// Where the audio loop reads the mic/line input: an ALSA capture PCM or a file played in a loop.
protocol AudioInput: AnyObject, SendableMetatype {
    func read(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) -> PCMTransferStatus
}

extension PCMDevice: AudioOutput, AudioInput {}

/// An output that takes every period at once and keeps nothing; optionally "unplugged" at one write.
final class DiscardingOutput: AudioOutput {
    private let loseAtWrite: Int?
    private var writes = 0

    init(loseAtWrite: Int?) { self.loseAtWrite = loseAtWrite }

    func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) -> PCMTransferStatus {
        writes += 1
        return writes == loseAtWrite ? .deviceLost(code: -19) : .complete
    }

    var xrunCount: Int { 0 }
    func close() {}
}

extension PacedNullDevice: AudioOutput {
    var xrunCount: Int { missedDeadlineCount }
    func close() {}
}

/// A decoded audio file served as endless input, never blocking (the output paces the loop).
final class FileInput: AudioInput {
    private let left: [Float]
    private let right: [Float]
    private var position = 0

    init(_ audio: DecodedAudio) {
        left = audio.channels[0]
        right = audio.channels.count > 1 ? audio.channels[1] : audio.channels[0]
    }

    func read(left l: UnsafeMutablePointer<Float>, right r: UnsafeMutablePointer<Float>, frames: Int) -> PCMTransferStatus {
        for i in 0..<frames {
            l[i] = left[position]
            r[i] = right[position]
            position += 1
            if position == left.count { position = 0 }
        }
        return .complete
    }
}

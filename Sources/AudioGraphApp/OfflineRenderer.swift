import AudioFiles
import DSP
import Engine
import Foundation
import MIDI

/// What an offline render produced.
public struct OfflineRenderSummary: Sendable {
    public var frames: Int
    public var sampleRate: Double
    public var peak: Float
    public var wallSeconds: Double
    /// Per-channel notes, program and peak, for channels that received notes.
    public var parts: [PartSummary] = []

    public var audioSeconds: Double { Double(frames) / sampleRate }
    public var peakDecibels: Double { Decibels.fromGain(Double(peak)) }
    public var realTimeFactor: Double { wallSeconds > 0 ? audioSeconds / wallSeconds : .infinity }

    /// The one-line summary `render` prints.
    public func line(outputPath: String) -> String {
        String(format: "rendered %.2f s to %@: peak %.1f dBFS, %.1f× real time", audioSeconds, outputPath, peakDecibels, realTimeFactor)
    }
}

/// Renders the engine faster than real time: MIDI events placed at their exact frames, an optional
/// input file fed to the mic bus, block by block into a WAV writer, then the release tail until the
/// graph falls silent. Deterministic: the same inputs give the same samples.
public final class OfflineRenderer {
    public let engine: AudioEngine
    public let blockFrames: Int
    /// Called between blocks for each program change, on the frame it is due (load a preset
    /// and submit it; the sampler takes it at the start of the next block).
    public var programChange: ((Int) -> Void)?
    /// The tail after the last event is cut here even if something still sounds (e.g. a loop left on).
    public var maxTailSeconds = 10.0
    private let output: StereoBuffer
    private let inputBuffer: StereoBuffer
    private var events: UnsafeMutableBufferPointer<TimedMIDIMessage>

    public init(engine: AudioEngine, blockFrames: Int) {
        self.engine = engine
        self.blockFrames = min(max(1, blockFrames), engine.configuration.maxFrames)
        output = StereoBuffer(capacity: self.blockFrames)
        inputBuffer = StereoBuffer(capacity: self.blockFrames)
        events = .allocate(capacity: 4096)
    }

    deinit { events.deallocate() }

    /// Renders `midi` (sorted by time) and `input` (already at the engine rate) into `sink`, calling
    /// `progress` with 0…1 now and then.
    public func render(
        midi: [MIDIFileEvent], input: DecodedAudio? = nil,
        sink: (StereoBlock) throws(AudioFileError) -> Void,
        progress: (Double) -> Void = { _ in }
    ) throws(AudioFileError) -> OfflineRenderSummary {
        let rate = engine.configuration.sampleRate
        let start = Date()
        let scheduled = midi.map { (frame: max(0, Int(($0.seconds * rate).rounded())), message: $0.message) }
        let inputFrames = input?.frameCount ?? 0
        let musicFrames = max(scheduled.last.map { $0.frame + 1 } ?? 0, inputFrames)
        // The engine's output lags by its latency (the master limiter's look-ahead): render that
        // much longer and drop that much from the start, so the file lines up with the MIDI.
        let latency = engine.latencyFrames
        let lastFrame = musicFrames + Int(maxTailSeconds * rate) + latency
        var frame = 0, next = 0, peak: Float = 0
        while frame < lastFrame {
            var n = min(blockFrames, lastFrame - frame)
            var count = 0
            while next < scheduled.count && scheduled[next].frame < frame + n && count < events.count {
                if case .programChange(_, let program) = scheduled[next].message, programChange != nil {
                    // End the block here; the program is switched before the frame it is due on.
                    if scheduled[next].frame > frame {
                        n = scheduled[next].frame - frame
                        break
                    }
                    programChange?(Int(program))
                    next += 1
                    continue
                }
                events[count] = TimedMIDIMessage(frameOffset: scheduled[next].frame - frame, message: scheduled[next].message)
                count += 1
                next += 1
            }
            let inputBlock = input.map { fillInput($0, from: frame, frames: n) }
            let block = output.block(frames: n)
            engine.render(output: block, input: inputBlock, events: UnsafeBufferPointer(rebasing: events[0..<count]))
            engine.performControlWork()
            let skip = min(max(0, latency - frame), n)
            let audible = block.slice(from: skip, count: n - skip)
            for i in 0..<audible.frames { peak = max(peak, abs(audible.left[i]), abs(audible.right[i])) }
            if audible.frames > 0 { try sink(audible) }
            frame += n
            if frame % (blockFrames * 256) < n { progress(min(1, Double(frame) / Double(musicFrames + 1))) }
            if frame >= musicFrames + latency && next == scheduled.count && engine.isIdle { break }
        }
        progress(1)
        return OfflineRenderSummary(frames: max(0, frame - latency), sampleRate: rate, peak: peak, wallSeconds: Date().timeIntervalSince(start),
                                    parts: PartSummary.collect(engine))
    }

    private func fillInput(_ audio: DecodedAudio, from start: Int, frames: Int) -> StereoBlock {
        let block = inputBuffer.block(frames: frames)
        block.clear()
        let available = max(0, min(frames, audio.frameCount - start))
        guard available > 0 else { return block }
        let left = audio.channels[0], right = audio.channels.count > 1 ? audio.channels[1] : audio.channels[0]
        for i in 0..<available {
            block.left[i] = left[start + i]
            block.right[i] = right[start + i]
        }
        return block
    }
}

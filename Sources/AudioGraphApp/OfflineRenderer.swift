import AudioFiles
import DSP
import Engine
import Foundation
import MIDI
import Sampler
import SamplerLevels

/// What an offline render produced.
public struct OfflineRenderSummary: Sendable {
    public var frames: Int
    public var sampleRate: Double
    /// Largest absolute sample written (infinity if anything non-finite was written: never hidden).
    public var peak: Float
    public var wallSeconds: Double
    /// Per-channel notes, program and peak, for channels that received notes.
    public var parts: [PartSummary] = []
    /// Blocks the engine silenced because they held NaN or infinity (see `NonFiniteGuard`).
    public var nonFiniteBlocks = 0
    /// Sampler voices stopped because their output ran away (see `VoiceGuard`).
    public var runawayVoices = 0
    /// Events that could not be applied on their own frame because more than the renderer's
    /// per-block capacity were due at once; each was applied on a later frame, none dropped.
    public var delayedEvents = 0
    /// Largest such delay, in frames.
    public var maxEventDelayFrames = 0
    /// Limits that were hit (song cap, tail cap), one line each, for stderr.
    public var warnings: [String] = []

    public var audioSeconds: Double { Double(frames) / sampleRate }
    public var peakDecibels: Double { Decibels.fromGain(Double(peak)) }
    public var realTimeFactor: Double { wallSeconds > 0 ? audioSeconds / wallSeconds : .infinity }

    /// The one-line summary `render` prints.
    public func line(outputPath: String) -> String {
        var text = String(format: "rendered %.2f s to %@: peak %.1f dBFS, %.1f× real time", audioSeconds, outputPath, peakDecibels, realTimeFactor)
        if nonFiniteBlocks > 0 { text += ", \(nonFiniteBlocks) blocks with NaN/inf or runaway values silenced" }
        if runawayVoices > 0 { text += ", \(runawayVoices) runaway voices stopped" }
        if delayedEvents > 0 {
            text += String(format: ", %d events over %d per block applied up to %.1f ms late", delayedEvents,
                           OfflineRenderer.eventCapacity, Double(maxEventDelayFrames) * 1000 / sampleRate)
        }
        return text
    }
}

/// Renders the engine faster than real time: MIDI events placed at their exact frames, an optional
/// input file fed to the mic bus, block by block into a WAV writer, then the release tail until the
/// graph falls silent (below −96 dBFS). At the song's last event the sustain and sostenuto pedals
/// are lifted on every channel (`SongEnd`, as FluidSynth's player does), so a song that ends with
/// a pedal down rings out instead of droning to the tail limit. Deterministic: the same inputs
/// give the same samples.
///
/// Limits (each reported when hit, never silent): the song is cut at `maxSongSeconds`, the tail
/// after the last event at `maxTailSeconds`, both ending with a short fade rather than a cut; more
/// than `eventCapacity` events due in one block are carried to the next frames, not dropped.
public final class OfflineRenderer {
    public let engine: AudioEngine
    public let blockFrames: Int
    /// Events after this time are not played (`render --max-seconds`): a corrupt delta or a note
    /// held for days must not write a file without bound.
    public var maxSongSeconds = 3600.0
    /// After the last event, rendering goes on until the output stays below `silenceDecibels` for
    /// `silenceSeconds` (or the engine is idle), but no longer than this (e.g. a loop left on).
    public var maxTailSeconds = 30.0
    public static let silenceDecibels = -96.0
    static let silenceSeconds = 0.5
    /// A sound still going at a cap is faded out over this time, not cut.
    public static let fadeSeconds = 0.05
    /// A region's levels are let go when the song does not strike it again for this long, and
    /// rebuilt before its next strike (`LevelSchedule`): memory against rebuilding time (see
    /// docs/SOUNDFONTS.md, "Loading and memory").
    public var levelGapSeconds = 30.0
    /// At most this much of the levels to come is built ahead by the helper threads (`LevelPrefetch`),
    /// beside the level budget.
    static let levelPrefetchBytes = 16 << 20
    /// More work the helper threads do when they have no span to render, after building levels
    /// ahead, as long as it returns true (`render`'s: handing the output to the file, `HandedOffWriter`).
    public var helperIdleWork: (@Sendable () -> Bool)?
    /// Events handed to the engine per block.
    public static let eventCapacity = 4096
    private let output: StereoBuffer
    private let inputBuffer: StereoBuffer
    private var events: UnsafeMutableBufferPointer<TimedMIDIMessage>

    public init(engine: AudioEngine, blockFrames: Int) {
        self.engine = engine
        self.blockFrames = min(max(1, blockFrames), engine.configuration.maxFrames)
        output = StereoBuffer(capacity: self.blockFrames)
        inputBuffer = StereoBuffer(capacity: self.blockFrames)
        events = .allocate(capacity: Self.eventCapacity)
    }

    deinit { events.deallocate() }

    /// Renders `midi` (sorted by time) and `input` (already at the engine rate) into `sink`, calling
    /// `progress` with 0…1 now and then.
    public func render<Events: RandomAccessCollection<MIDIFileEvent>>(
        midi: Events, input: (any RenderInput)? = nil,
        sink: (StereoBlock) throws(AudioFileError) -> Void,
        progress: (Double) -> Void = { _ in }
    ) throws(AudioFileError) -> OfflineRenderSummary where Events.Index == Int {
        let rate = engine.configuration.sampleRate
        let start = Date()
        // Frames are computed in Double and limited before converting: Int(huge) would trap.
        let songLimit = Int(min(max(maxSongSeconds, 0) * rate, 1e15))
        // Read in place, not copied (a song can hold millions of events); sorted, so those past the limit are last.
        let scheduled = midi.lazy.map { (frame: Int(min(max(0, ($0.seconds * rate).rounded()), 1e15)), message: $0.message) }
        var end = midi.endIndex
        while end > midi.startIndex && scheduled[end - 1].frame >= songLimit { end -= 1 }
        let skippedEvents = midi.endIndex - end
        // The song's events, then the pedal lifts on the frame of its last one.
        let lastFrame = end > midi.startIndex ? scheduled[end - 1].frame : 0
        let total = end + (end > midi.startIndex ? SongEnd.messages.count : 0)
        func event(_ i: Int) -> (frame: Int, message: MIDIMessage) {
            i < end ? scheduled[i] : (lastFrame, SongEnd.messages[i - end])
        }
        // Band-limited levels of exactly what the song plays, each region's from just before its
        // first note to just after its last (deterministic), as far as the level budget holds them.
        let levels = engine.programBank.map { bank in
            LevelSchedule(
                plan: LevelBuildPlan(bank: bank, messages: midi[midi.startIndex..<end].map(\.message)), bank: bank, sampleRate: rate,
                frame: { scheduled[midi.startIndex + $0].frame }, gapFrames: Int((0...1e6).clamp(levelGapSeconds) * rate),
                prefetchBytes: engine.configuration.samplerWorkers > 1 ? Self.levelPrefetchBytes : 0)
        }
        // Helpers with no span to render build the levels of the uses to come, then do the rest.
        var idleWork: (@Sendable () -> Bool)?
        switch (levels?.prefetch, helperIdleWork) {
        case (let prefetch?, let more?): idleWork = { prefetch.buildOne() || more() }
        case (let prefetch?, nil): idleWork = { prefetch.buildOne() }
        case (nil, let more): idleWork = more
        }
        let helpers = RenderHelpers(engine: engine, idleWork: idleWork)
        defer { helpers.stop() }
        let inputFrames = min(input?.frameCount ?? 0, songLimit)
        let musicFrames = max(end > midi.startIndex ? scheduled[end - 1].frame + 1 : 0, inputFrames)
        // The engine's output lags by its latency (the master limiter's look-ahead): render that
        // much longer and drop that much from the start, so the file lines up with the MIDI.
        let latency = engine.latencyFrames
        let endLimit = musicFrames + Int(max(maxTailSeconds, 0) * rate) + latency
        let fadeFrames = max(1, Int(Self.fadeSeconds * rate))
        let silence = Float(Decibels.gain(Self.silenceDecibels))
        let silenceFrames = Int(Self.silenceSeconds * rate)
        var summary = OfflineRenderSummary(frames: 0, sampleRate: rate, peak: 0, wallSeconds: 0)
        // The engine's idle test does not see the mic chain (a delay rings on after the input), so
        // with an input only the measured level says when it is over.
        func isSilent(quietFrames: Int) -> Bool { (input == nil && engine.isIdle) || quietFrames >= silenceFrames }
        var frame = 0, next = midi.startIndex, quietFrames = 0
        while frame < endLimit {
            var n = min(blockFrames, endLimit - frame)
            var count = 0
            while next < total && event(next).frame < frame + n {
                let due = event(next)
                if count == events.count {
                    // Full: end the block before the next event (at least one frame on), which then
                    // leads the next block: late by the frames it took, never dropped.
                    n = max(1, due.frame - frame)
                    break
                }
                let late = max(0, frame - due.frame)
                if late > 0 {
                    summary.delayedEvents += 1
                    summary.maxEventDelayFrames = max(summary.maxEventDelayFrames, late)
                }
                events[count] = TimedMIDIMessage(frameOffset: max(0, due.frame - frame), message: due.message)
                count += 1
                next += 1
            }
            let inputBlock = try input.map { input throws(AudioFileError) in try fillInput(input, from: frame, frames: n, limit: inputFrames) }
            let block = output.block(frames: n)
            levels?.prepare(before: next - midi.startIndex)
            engine.render(output: block, input: inputBlock, events: UnsafeBufferPointer(rebasing: events[0..<count]))
            levels?.release(before: next - midi.startIndex)
            engine.performControlWork()
            if frame + n > endLimit - fadeFrames { fade(block, from: frame, end: endLimit, over: fadeFrames) }
            let skip = min(max(0, latency - frame), n)
            let audible = block.slice(from: skip, count: n - skip)
            let blockPeak = BlockPeak.showingNaN(audible)
            summary.peak = max(summary.peak, blockPeak)
            quietFrames = blockPeak < silence ? quietFrames + audible.frames : 0
            if audible.frames > 0 { try sink(audible) }
            frame += n
            if frame % (blockFrames * 256) < n { progress(min(1, Double(frame) / Double(musicFrames + 1))) }
            if frame >= musicFrames + latency && next == total && isSilent(quietFrames: quietFrames) { break }
        }
        if frame >= endLimit && !isSilent(quietFrames: quietFrames) {
            summary.warnings.append(String(
                format: "still sounding %.0f s after the last event (the tail limit): faded out over %.0f ms at %.2f s",
                maxTailSeconds, Self.fadeSeconds * 1000, Double(frame - latency) / rate))
        }
        if let levelWarning = levels?.report.warning { summary.warnings.append(levelWarning) }
        if skippedEvents > 0 {
            summary.warnings.append(String(
                format: "the song is longer than the %.0f s limit: %d events after it were not played (raise it with --max-seconds)",
                maxSongSeconds, skippedEvents))
        }
        progress(1)
        summary.frames = max(0, frame - latency)
        summary.nonFiniteBlocks = engine.meters.nonFiniteBlocks
        summary.runawayVoices = engine.meters.runawayVoices
        summary.parts = PartSummary.collect(engine.controller)
        summary.wallSeconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Gain ramp to 0 at `end` over `frames`, applied to the block starting at `from`.
    private func fade(_ block: StereoBlock, from: Int, end: Int, over frames: Int) {
        for i in 0..<block.frames {
            let g = Float(min(max(Double(end - (from + i) - 1) / Double(frames), 0), 1))
            block.left[i] *= g
            block.right[i] *= g
        }
    }

    private func fillInput(_ input: any RenderInput, from start: Int, frames: Int, limit: Int) throws(AudioFileError) -> StereoBlock {
        let block = inputBuffer.block(frames: frames)
        block.clear()
        let available = max(0, min(frames, limit - start))
        guard available > 0 else { return block }
        try input.read(from: start, frames: available, left: block.left, right: block.right)
        return block
    }
}

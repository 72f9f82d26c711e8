import ALSAIO
import ArgumentParser
import Synchronization
import AudioFiles
import Foundation
import LiveLoop
import MIDI

/// `audiograph soak`: the live render loop on the render thread, paced by the clock at a small
/// period, with the whole graph busy, for minutes. Proves timing on the host CPU: periods whose
/// render missed its deadline, worst render time, wake-up lateness.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "Run the busy graph on a clock-paced device for a while and report deadline misses and lateness.")

    @Option(parsing: .unconditional, help: "Minutes to run (0.01…10080).") var minutes: Double = 10
    @Option(parsing: .unconditional, help: "Frames per period (16…8192).") var period = 64
    @Option(parsing: .unconditional, help: "Synth voices held (1…1024).") var voices = 32
    @Option(help: "Mic effect applied to the file input.") var effect = "delay"
    @Option(name: .customLong("input-file"), help: "File looped into the mic input (default: the guitar loop).") var inputFile: String?
    @Option(name: .customLong("rt-priority"), parsing: .unconditional, help: "SCHED_FIFO priority (0…99; 0 = normal scheduling).")
    var realtimePriority: Int32 = 80
    @OptionGroup var engineOptions: EngineOptions

    func validate() throws {
        try OptionRange.check(minutes, 0.01...10_080, "--minutes")
        try OptionRange.check(period, 16...8192, "--period", unit: "frames")
        try OptionRange.check(voices, 1...1024, "--voices")
        try OptionRange.check(realtimePriority, 0...99, "--rt-priority")
    }

    func run() throws {
        var loader = try engineOptions.loader()
        loader.assignments = ["loop.beat.play=on", "master.lowpass.enabled=on", "master.highpass.enabled=on",
                              "synth.sustain=1", "synth.voices=\(voices)", "mic.effect=\(effect)"] + loader.assignments
        let rate = engineOptions.rate
        let engine = try loader.makeEngine(configuration: .init(sampleRate: Double(rate), maxFrames: period, maxSynthVoices: max(64, voices)))
        let inputPath = inputFile ?? loader.file.loops?["guitar"].map { InstrumentLocator.resolve($0, relativeTo: (loader.instrumentPath as NSString).deletingLastPathComponent) }
        guard let inputPath else { throw ValidationError("no --input-file and the instrument has no guitar loop") }
        let audio = try AudioFileReader.read(path: inputPath, convertingTo: Double(rate), wholeFileLoops: true)
        let input = LoopedInput(left: audio.channels[0], right: audio.channels.count > 1 ? audio.channels[1] : nil)
        let device = PacedNullDevice(sampleRateHz: rate, periodFrames: period, bufferPeriods: 2)
        let inbox = MIDIInbox(log: { _ in })
        let now = MonotonicClock.nanoseconds()
        for v in 0..<voices {
            inbox.rings.live.push(StampedMessage(message: .noteOn(channel: 1, note: UInt8(36 + v % 60), velocity: 100), arrivalNanoseconds: now))
        }
        let renderer = PeriodRenderer(engine: engine, inbox: inbox, periodFrames: period)
        renderer.warmUp()
        let loop = AudioLoop(renderer: renderer, output: .paced(device), input: .looped(input))
        let stealAtStart = MachineNoise.stealSeconds()
        let preemptions = Atomic<Int>(0)
        let (thread, realtime) = try RealtimeThread.start(name: "audiograph-soak", priority: realtimePriority > 0 ? realtimePriority : nil) {
            loop.run()
            preemptions.store(MachineNoise.involuntarySwitchesOfThisThread(), ordering: .relaxed)
        }
        print("soak: \(period)-frame periods at \(rate) Hz for \(minutes) min; \(voices) synth voices, beat loop, mic \(effect) on \((inputPath as NSString).lastPathComponent), master LP+HP")
        print("audio thread: \(realtime)")
        let deadline = Date().addingTimeInterval(minutes * 60)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: min(10, max(0, deadline.timeIntervalSinceNow)))
        }
        loop.stop()
        thread.join()
        let periodNanoseconds = Double(period) / Double(rate) * 1e9
        let s = renderer.stats
        print("voices sounding at the end: \(renderer.controller.meters.activeVoices)")
        print("periods: \(s.periods.load(ordering: .relaxed)), renders longer than the period: \(s.missedDeadlines.load(ordering: .relaxed))")
        print(String(format: "worst render: %.1f µs = %.1f%% of the %.0f µs period",
                     Double(s.worstRenderNanoseconds.load(ordering: .relaxed)) / 1000,
                     100 * Double(s.worstRenderNanoseconds.load(ordering: .relaxed)) / periodNanoseconds, periodNanoseconds / 1000))
        print("wake-ups: \(device.report())")
        print(String(format: "machine: %.1f s of CPU stolen by the hypervisor during the run; the audio thread was preempted %d times",
                     MachineNoise.stealSeconds() - stealAtStart, preemptions.load(ordering: .relaxed)))
    }
}

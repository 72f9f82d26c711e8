import ArgumentParser
import Benchmarks
import DSP
import Foundation
import MicEffects
import Sampler

/// `audiograph bench`: what the render path costs on this machine, measured, not guessed.
/// Release builds only; the machine's other load shows in the median, not the minimum.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure the render path: full graph per block, synth and sampler per voice-sample, mic effects, send effects.")

    enum Section: String, ExpressibleByArgument, CaseIterable { case all, graph, parts, synth, sampler, mic, fx }

    @Argument(help: "What to measure: all, graph, parts, synth, sampler, mic, fx.")
    var section: Section = .all

    @Option(parsing: .unconditional, help: "Frames per block for the graph (1…4096).")
    var block: Int = 64

    @Option(parsing: .unconditional, help: "Synth voices held during the full-graph run (1…1024).")
    var voices: Int = 32

    @Option(name: .customLong("sampler-voices"), parsing: .unconditional,
            help: "Sampler voices held during the full-graph and sampler runs (0…1024).")
    var samplerVoices: Int = 64

    @Option(parsing: .unconditional, help: "Seconds of audio per trial (0.1…3600).")
    var seconds: Double = 5

    @Option(parsing: .unconditional, help: "Trials; median and minimum are reported (1…1000).")
    var trials: Int = 5

    @Option(name: .customLong("fx-render-blocks"), parsing: .unconditional,
            help: ArgumentHelp("Only render this many 64-frame blocks of reverb + chorus, for valgrind --tool=callgrind (1…1000000000).",
                               visibility: .hidden))
    var fxRenderBlocks: Int?

    @Option(name: .customLong("graph-render-blocks"), parsing: .unconditional,
            help: ArgumentHelp("Only render this many blocks of the busy full graph, for valgrind --tool=callgrind (1…1000000000).",
                               visibility: .hidden))
    var graphRenderBlocks: Int?

    @Flag(name: .customLong("graph-without-sends"), help: ArgumentHelp("--graph-render-blocks with fx.enabled off.", visibility: .hidden))
    var graphWithoutSends = false

    enum SendEffectUnit: String, ExpressibleByArgument { case both, reverb, chorus }

    @Option(name: .customLong("fx-unit"), help: ArgumentHelp("Which send effect --fx-render-blocks renders.", visibility: .hidden))
    var fxUnit: SendEffectUnit = .both

    @OptionGroup var engineOptions: EngineOptions

    func validate() throws {
        try OptionRange.check(block, 1...4096, "--block", unit: "frames")
        try OptionRange.check(voices, 1...1024, "--voices")
        try OptionRange.check(samplerVoices, 0...1024, "--sampler-voices")
        try OptionRange.check(seconds, 0.1...3600, "--seconds", unit: "s")
        try OptionRange.check(trials, 1...1000, "--trials")
        if let fxRenderBlocks { try OptionRange.check(fxRenderBlocks, 1...1_000_000_000, "--fx-render-blocks") }
        if let graphRenderBlocks { try OptionRange.check(graphRenderBlocks, 1...1_000_000_000, "--graph-render-blocks") }
    }

    func run() throws {
        if let blocks = fxRenderBlocks {
            SendEffectsBenchmark.renderBlocks(blocks, sampleRate: Double(engineOptions.rate), reverb: fxUnit != .chorus, chorus: fxUnit != .reverb)
            return
        }
        if let blocks = graphRenderBlocks {
            let bench = try busyGraph(rate: Double(engineOptions.rate), sends: !graphWithoutSends)
            bench.startNotes()
            bench.renderBlocks(blocks)
            return
        }
        let rate = Double(engineOptions.rate)
        let budget = Double(block) / rate * 1e9
        print("audiograph bench: \(block)-frame blocks at \(Int(rate)) Hz (budget \(String(format: "%.1f", budget / 1000)) µs), \(trials) trials of \(seconds) s")
        if section == .all || section == .graph { try graph(rate: rate, budget: budget) }
        if section == .all || section == .parts { try parts(rate: rate, budget: budget) }
        if section == .all || section == .synth { synth(rate: rate) }
        if section == .all || section == .sampler { sampler(rate: rate) }
        if section == .all || section == .mic { mic(rate: rate) }
        if section == .all || section == .fx { sendEffects(rate: rate) }
    }

    private func busyGraph(rate: Double, sends: Bool) throws -> GraphBenchmark {
        try GraphBenchmark.busy(loader: try engineOptions.loader(), sampleRate: rate, blockFrames: block, synthVoices: voices,
                                samplerVoices: samplerVoices, micEffect: "pitchshift", sends: sends)
    }

    private func graph(rate: Double, budget: Double) throws {
        let loader = try engineOptions.loader()
        var medians: [Double] = []
        for sends in [true, false] {
            let busy = try busyGraph(rate: rate, sends: sends)
            let full = TrialStatistics.measure(trials: trials) { busy.nanosecondsPerBlock(seconds: seconds) }
            medians.append(full.median)
            print(String(format: "full graph (%d synth + %d sampler voices sounding, 3 loops, mic pitch shift on an input, master LP+HP, "
                         + "sends %@): %.1f µs per block = %.2f%% of real time (median; min %.2f%%)",
                         busy.engine.activeVoiceCounts.synth, busy.engine.activeVoiceCounts.sampler, sends ? "on (reverb + chorus)" : "off",
                         full.median / 1000, 100 * full.median / budget, 100 * full.minimum / budget))
        }
        print(String(format: "  sends on − off: %.2f µs per block (instructions: scripts/bench-fx-callgrind)", (medians[0] - medians[1]) / 1000))
        let idle = try GraphBenchmark.idleNanosecondsPerBlock(loader: loader, sampleRate: rate, blockFrames: block, seconds: seconds)
        print(String(format: "idle instrument (nothing sounding): %.2f µs per block = %.3f%% of real time", idle / 1000, 100 * idle / budget))
    }

    private func parts(rate: Double, budget: Double) throws {
        let bench = try PartsBenchmark(loader: try engineOptions.loader(), sampleRate: rate, blockFrames: block)
        var voices = 0.0
        let s = TrialStatistics.measure(trials: trials) {
            let run = bench.nanosecondsPerBlock(seconds: seconds)
            voices = run.voices
            return run.nanoseconds
        }
        print(String(format: "16 parts × %d voices sounding (sampler programs of 13 GM families, synth on ch 2, drum kit on ch 10; "
                     + "%.0f voices on average, master LP+HP): %.1f µs per block = %.2f%% of real time (median; min %.2f%%)",
                     PartsBenchmark.voicesPerPart, voices, s.median / 1000, 100 * s.median / budget, 100 * s.minimum / budget))
    }

    private func synth(rate: Double) {
        let s = TrialStatistics.measure(trials: trials) {
            GraphBenchmark.synthNanosecondsPerVoiceSample(voices: voices, sampleRate: rate, blockFrames: block, seconds: seconds)
        }
        print(String(format: "sine synth: %.2f ns per voice-sample (median; min %.2f)", s.median, s.minimum))
    }

    private func sampler(rate: Double) {
        for quality in [InterpolationQuality.realtime, .high] {
            let s = TrialStatistics.measure(trials: trials) {
                let a = SamplerBenchmark.run(voices: samplerVoices, seconds: seconds, sampleRate: rate, quality: quality).nanosecondsPerVoiceSample
                return a
            }
            let kernel = quality == .realtime ? "4-point cubic on band-limited levels, live" : "16 taps on band-limited levels, offline"
            print(String(format: "sampler (%@, %d looping voices at ±12 semitones): %.2f ns per voice-sample (median; min %.2f)",
                         kernel, samplerVoices, s.median, s.minimum))
        }
        print("  instructions per voice-sample: run `sampler-bench` under valgrind --tool=callgrind (scripts/bench-sampler-callgrind, docs/PERFORMANCE.md)")
    }

    private func mic(rate: Double) {
        for (effect, share) in MicEffectsBenchmark.run(seconds: seconds, sampleRate: rate) {
            print(String(format: "mic effect %-10@ %.3f%% of a 64-frame block", effect, 100 * share))
        }
        for semitones in [7.0, -5.0] {
            for f in MicEffectsBenchmark.comparePitchShifters(semitones: semitones, seconds: seconds, sampleRate: rate) {
                print(String(format: "pitch shift %+.0f st  %-28@ %7.1f× real time, error %.3f cents, harmonic-to-residual %.1f dB",
                             semitones, f.name, f.realTimeFactor, f.pitchErrorCents, f.harmonicToResidualDecibels))
            }
        }
    }

    /// Reverb and chorus per 64-frame block, each trial timing both units on the same input.
    private func sendEffects(rate: Double) {
        let runs = (0..<max(1, trials)).map { _ in SendEffectsBenchmark.run(seconds: seconds, sampleRate: rate, blockFrames: 64) }
        let budget = runs[0].budgetNanoseconds
        for (name, cost) in [("reverb (FDN)", \SendEffectsBenchmark.Figures.reverbNanosecondsPerBlock),
                             ("chorus (3 voices)", \SendEffectsBenchmark.Figures.chorusNanosecondsPerBlock),
                             ("reverb + chorus", \SendEffectsBenchmark.Figures.totalNanosecondsPerBlock)] {
            let values = runs.map { $0[keyPath: cost] }.sorted()
            let median = values[values.count / 2]
            print(String(format: "send effect %-18@ %.2f µs per 64-frame block = %.2f%% of real time (median; min %.2f%%)",
                         name, median / 1000, 100 * median / budget, 100 * values[0] / budget))
        }
        print("  instructions per block: scripts/bench-fx-callgrind")
    }
}

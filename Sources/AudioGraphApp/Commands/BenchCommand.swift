import ArgumentParser
import Foundation

/// `audiograph bench`: what the render path costs on this machine, measured, not guessed.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure the render path: full graph per block, synth per voice-sample.")

    @Option(help: "Frames per block.")
    var block: Int = 64

    @Option(help: "Synth voices held during the full-graph run.")
    var voices: Int = 32

    @Option(help: "Seconds of audio per trial.")
    var seconds: Double = 5

    @Option(help: "Trials (median and minimum are reported).")
    var trials: Int = 5

    @OptionGroup var engineOptions: EngineOptions

    func run() throws {
        let rate = Double(engineOptions.rate)
        let budget = Double(block) / rate * 1e9
        print("audiograph bench: \(block)-frame blocks at \(Int(rate)) Hz (budget \(String(format: "%.1f", budget / 1000)) µs per block), \(trials) trials of \(seconds) s")
        let graph = try GraphBenchmark.busy(loader: try engineOptions.loader(), sampleRate: rate, blockFrames: block,
                                            synthVoices: voices, extraSettings: [])
        let full = TrialStatistics.measure(trials: trials) { graph.nanosecondsPerBlock(seconds: seconds) }
        print(String(format: "full graph (%d synth voices, 3 loops, master LP+HP): %.2f µs per block = %.2f%% of real time (median; min %.2f%%)",
                     voices, full.median / 1000, 100 * full.median / budget, 100 * full.minimum / budget))
        let synth = TrialStatistics.measure(trials: trials) {
            GraphBenchmark.synthNanosecondsPerVoiceSample(voices: voices, sampleRate: rate, blockFrames: block, seconds: seconds)
        }
        print(String(format: "sine synth: %.2f ns per voice-sample (median; min %.2f)", synth.median, synth.minimum))
    }
}

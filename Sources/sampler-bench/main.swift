// Benchmarks the sampler's render loop.
//   sampler-bench [voices] [seconds] [realtime|high|cubic]  prints ns per voice-sample and ×real time
//   sampler-bench --render-only [voices] [seconds] [quality] only renders (for valgrind --tool=callgrind:
//                                                           run with 64 and 0 voices and subtract);
//                                                           cubic is the former, aliasing live kernel
//   sampler-bench --fluidsynth-fixture DIR [voices] [seconds]
//                                                           writes DIR/tone.sf2, notes.mid, silence.mid
//                                                           for the same measurement on fluidsynth
import Benchmarks
import DSP
import Sampler

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--fluidsynth-fixture", arguments.count >= 2 {
    let voices = arguments.count > 2 ? Int(arguments[2]) ?? 64 : 64
    let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 2 : 2
    let written = FluidSynthFixture.write(directory: arguments[1], voices: voices, seconds: seconds)
    print(written ? "wrote \(arguments[1])/tone.sf2, notes.mid, silence.mid" : "could not write into \(arguments[1])")
    exit(written ? 0 : 1)
}
let renderOnly = arguments.first == "--render-only"
let numbers = arguments.filter { $0 != "--render-only" }
let voices = numbers.count > 0 ? Int(numbers[0]) ?? 64 : 64
let seconds = numbers.count > 1 ? Double(numbers[1]) ?? 2 : 2
let qualities: [String: InterpolationQuality] = ["realtime": .realtime, "high": .high, "cubic": .cubic]
let quality = numbers.count > 2 ? qualities[numbers[2]] ?? .realtime : .realtime
let sampleRate = 48_000.0

if renderOnly {
    let blockFrames = 256
    let sampler = SamplerBenchmark.prepare(voices: voices, sampleRate: sampleRate, blockFrames: blockFrames, quality: quality)
    let output = StereoBuffer(capacity: blockFrames)
    SamplerBenchmark.renderBlocks(sampler, into: output, blocks: Int(seconds * sampleRate) / blockFrames)
    print("rendered \(voices) voices × \(Int(seconds * sampleRate) / blockFrames * blockFrames) frames; active \(sampler.activeVoiceCount)")
} else {
    let result = SamplerBenchmark.run(voices: voices, seconds: seconds, sampleRate: sampleRate, quality: quality)
    print("voices \(voices), \(quality): \(result.nanosecondsPerVoiceSample) ns per voice-sample, \(result.realTimeFactor)× real time")
}

import Engine
import Foundation

/// Program change → the preset at that index of the instrument's program list, loaded on the
/// control thread and handed to the sampler without stopping the audio (old voices fade out).
struct ProgramSwitcher {
    let loader: InstrumentLoader
    let engine: AudioEngine
    let log: (String) -> Void

    func switchTo(program: Int) {
        let paths = loader.programPaths
        guard paths.indices.contains(program) else {
            log("program \(program) ignored: the instrument lists \(paths.count) program\(paths.count == 1 ? "" : "s")")
            return
        }
        do {
            let loaded = try loader.loadPreset(path: paths[program], sampleRate: engine.configuration.sampleRate)
            engine.sampler.submit(loaded.program)
            log("program \(program): \((paths[program] as NSString).lastPathComponent)")
        } catch {
            log("program \(program) failed: \(error)")
        }
    }
}

import Sampler

extension SamplerProgram {
    /// When a loader builds a program's band-limited levels.
    public enum LevelBuilding: Sendable {
        /// Before the program is handed over (`preset check`, benchmarks, tests).
        case atLoad
        /// Later, by need: `LevelBuildPlan` before an offline render, `LevelPublisher` while playing.
        case byNeed
    }

    /// Any thread but the render thread: builds and publishes the levels of every region that has
    /// none yet.
    public func buildAllLevels() {
        for request in levelRequests { publishLevels(LevelBuilder.levels(for: request), for: request) }
    }

    /// Any thread but the render thread: builds and publishes the levels of the regions a note on
    /// one of `keys` can start (at any velocity).
    public func buildLevels(forKeys keys: Set<Int>) {
        for request in levelRequests(forKeys: keys) { publishLevels(LevelBuilder.levels(for: request), for: request) }
    }
}

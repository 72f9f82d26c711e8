import Presets

/// Where the sample references of an instrument's presets were found, so that presets side by side
/// naming the same files (the drum kits, a family's programs) run the TN2283 fallback search once
/// per reference. Only found files are kept; one instrument load, control thread.
public final class SampleResolutions {
    private var found: [String: SampleResolution] = [:]

    public init() {}

    /// `resolver`'s answer for `reference`, from an earlier preset of the same directory and search paths when there was one.
    func resolve(_ reference: String, with resolver: SamplePathResolver) -> SampleResolution {
        let key = ([resolver.presetPath.split(separator: "/").dropLast().joined(separator: "/"), reference] + resolver.searchDirectories)
            .joined(separator: "\n")
        if let known = found[key] { return known }
        let resolution = resolver.resolve(reference)
        if case .found = resolution { found[key] = resolution }
        return resolution
    }
}

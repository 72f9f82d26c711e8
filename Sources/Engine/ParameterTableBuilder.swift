/// Collects the parameters while an engine is built; `seal()` makes the `ParameterTable` that is
/// shared. Registration exists only here, so it cannot happen once a table is shared; a builder is
/// not `Sendable`, so it stays on the thread that builds the engine.
public final class ParameterTableBuilder {
    private var descriptors: [ParameterDescriptor] = []
    private var names: Set<String> = []

    public init() {}

    /// Adds a parameter and returns its index in the table `seal()` makes.
    @discardableResult
    public func register(_ d: ParameterDescriptor) -> Int {
        precondition(names.insert(d.name).inserted, "parameter \(d.name) registered twice")
        descriptors.append(d)
        return descriptors.count - 1
    }

    /// The table of everything registered, each value at its default.
    public func seal() -> ParameterTable { ParameterTable(descriptors: descriptors) }
}

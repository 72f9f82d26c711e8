/// Gives a struct or class the memberwise initialiser Swift synthesises only as `internal`, but
/// `public`: one parameter per stored property, in declaration order, labelled with its name and
/// defaulting to the property's initial value when a `var` has one. A `let` with an initial value
/// is not a parameter; computed, static and `lazy` properties are skipped.
///
///     @PublicInit
///     public struct SequencerAddress { public var client: UInt8; public var port: UInt8 }
///     // public init(client: UInt8, port: UInt8)
///
/// Value types that other modules construct would otherwise each carry a hand-written init that
/// only repeats their fields (and can forget one).
@attached(member, names: named(init))
public macro PublicInit() = #externalMacro(module: "MemberwiseInitMacro", type: "PublicInitMacro")

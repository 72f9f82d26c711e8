#if canImport(Glibc)
import Glibc
#endif

// libm's pure functions for render-path code checked with `@_noAllocation`. The
// compiler's performance diagnostics reject any call whose body it cannot see, and libm's are C;
// these functions neither lock nor allocate, so the wrappers opt them out of the analysis
// (`no_performance_analysis`). Besides these, only FFTW's execute (`Spectral/RealFFT.swift`)
// carries that attribute (Sources/DSP/README.md, "Checked by the compiler").
//
// Inside DSP the free functions shadow Glibc's of the same signature, so existing call sites
// (`pow(10, x / 20)`) need no change; other modules call `RealTimeMath`.

/// libm for render-path code in other modules (see above).
public enum RealTimeMath {
    @_semantics("no_performance_analysis") @inlinable
    public static func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
    @_semantics("no_performance_analysis") @inlinable
    public static func powf(_ x: Float, _ y: Float) -> Float { Glibc.powf(x, y) }
    @_semantics("no_performance_analysis") @inlinable
    public static func exp(_ x: Double) -> Double { Glibc.exp(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func exp(_ x: Float) -> Float { Glibc.expf(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func log(_ x: Double) -> Double { Glibc.log(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func log(_ x: Float) -> Float { Glibc.logf(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func log10(_ x: Double) -> Double { Glibc.log10(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func log2(_ x: Double) -> Double { Glibc.log2(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func exp2(_ x: Float) -> Float { Glibc.exp2f(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func exp2(_ x: Double) -> Double { Glibc.exp2(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func sin(_ x: Double) -> Double { Glibc.sin(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func sin(_ x: Float) -> Float { Glibc.sinf(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func cos(_ x: Double) -> Double { Glibc.cos(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func cos(_ x: Float) -> Float { Glibc.cosf(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func tan(_ x: Double) -> Double { Glibc.tan(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func atan2(_ y: Float, _ x: Float) -> Float { Glibc.atan2f(y, x) }
    // The standard library's `squareRoot()` and `rounded()` are C shims or use a rounding-rule
    // type the diagnostics treat as metadata: render-path code calls these instead.
    @_semantics("no_performance_analysis") @inlinable
    public static func sqrt(_ x: Double) -> Double { Glibc.sqrt(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func sqrt(_ x: Float) -> Float { Glibc.sqrtf(x) }
    /// `x.rounded()`: to nearest, halves away from zero.
    @_semantics("no_performance_analysis") @inlinable
    public static func round(_ x: Double) -> Double { Glibc.round(x) }
    @_semantics("no_performance_analysis") @inlinable
    public static func round(_ x: Float) -> Float { Glibc.roundf(x) }
    /// `x.rounded(.down)`.
    @_semantics("no_performance_analysis") @inlinable
    public static func floor(_ x: Double) -> Double { Glibc.floor(x) }
}

@inlinable func pow(_ x: Double, _ y: Double) -> Double { RealTimeMath.pow(x, y) }
@inlinable func powf(_ x: Float, _ y: Float) -> Float { RealTimeMath.powf(x, y) }
@inlinable func exp(_ x: Double) -> Double { RealTimeMath.exp(x) }
@inlinable func log10(_ x: Double) -> Double { RealTimeMath.log10(x) }
@inlinable func sin(_ x: Double) -> Double { RealTimeMath.sin(x) }
@inlinable func cos(_ x: Double) -> Double { RealTimeMath.cos(x) }
@inlinable func log2(_ x: Double) -> Double { RealTimeMath.log2(x) }
@inlinable func exp(_ x: Float) -> Float { RealTimeMath.exp(x) }
@inlinable func log(_ x: Double) -> Double { RealTimeMath.log(x) }
@inlinable func cos(_ x: Float) -> Float { RealTimeMath.cos(x) }
@inlinable func sqrt(_ x: Double) -> Double { RealTimeMath.sqrt(x) }
@inlinable func round(_ x: Double) -> Double { RealTimeMath.round(x) }
@inlinable func floor(_ x: Double) -> Double { RealTimeMath.floor(x) }

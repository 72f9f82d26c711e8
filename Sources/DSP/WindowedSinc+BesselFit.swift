#if canImport(Glibc)
import Glibc
#endif

extension WindowedSinc {
    /// I₀ by the polynomial fits of Abramowitz & Stegun 9.8.1–2 (relative error < 2·10⁻⁷, fixed
    /// cost at any x): what the sampler's offline kernel and band-limited level filters are
    /// designed with (their measured figures are of this fit, not of `besselI0`'s series).
    public static func besselI0Fit(_ x: Double) -> Double {
        if x < 3.75 {
            let t = x * x / (3.75 * 3.75)
            return 1 + t * (3.5156229 + t * (3.0899424 + t * (1.2067492 + t * (0.2659732 + t * (0.0360768 + t * 0.0045813)))))
        }
        let t = 3.75 / x
        let p = 0.39894228 + t * (0.01328592 + t * (0.00225319 + t * (-0.00157565 + t * (0.00916281
            + t * (-0.02057706 + t * (0.02635537 + t * (-0.01647633 + t * 0.00392377)))))))
        return exp(x) / x.squareRoot() * p
    }
}

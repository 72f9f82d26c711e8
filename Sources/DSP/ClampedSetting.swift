extension ClosedRange where Bound == Double {
    /// `x` pulled into the range; NaN becomes the lower bound (a setting never passes NaN on).
    @_noAllocation
    public func clamp(_ x: Double) -> Double {
        x.isNaN ? lowerBound : Swift.min(Swift.max(x, lowerBound), upperBound)
    }
}

import Testing

extension Measure {
    /// −60 dBFS: the largest third difference a "no click" check allows (see `maxDiscontinuity`).
    public static let clickThreshold = 0.001
    /// −60 dBFS RMS: below this the checked span counts as silence.
    public static let audibilityFloorRMS = 0.001

    /// "No click" that silence cannot pass: the span's largest step (third difference) is below
    /// `maxStep` AND its RMS is above `floorRMS`. All-zero output has no steps at all, so a step
    /// check alone would pass a unit that rendered nothing.
    public static func expectNoClick(
        _ x: ArraySlice<Float>, maxStep: Double = clickThreshold, floorRMS: Double = audibilityFloorRMS,
        _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let step = maxDiscontinuity(x)
        let level = rms(x)
        #expect(step < maxStep, "\(label) step (third difference) \(step) ≥ \(maxStep)", sourceLocation: sourceLocation)
        #expect(level > floorRMS, "\(label) level \(decibels(level)) dBFS RMS: silent, nothing to click", sourceLocation: sourceLocation)
    }

    public static func expectNoClick(
        _ x: [Float], maxStep: Double = clickThreshold, floorRMS: Double = audibilityFloorRMS,
        _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectNoClick(x[...], maxStep: maxStep, floorRMS: floorRMS, label, sourceLocation: sourceLocation)
    }
}

import DSP

/// Controller state of the (omni) channel, as the voices read it. Render thread only.
struct ChannelControls {
    /// Ramp for CC7/CC11/CC10 moves, so a jump never steps (RP-style 10 ms).
    static let controllerRampSeconds = 0.010

    /// Pitch-bend position −1…1 (8191 → just under +1).
    var bend = 0.0
    /// Mod wheel 0…1.
    var modWheel = 0.0
    var sustainPedalDown = false
    /// CC7 / CC11 gains through the DLS concave curve, and the CC10 pan offset. CC7 and CC11 start
    /// at 127 (unity) so a program plays at its own gain until a controller arrives.
    var volume: LinearSmoother
    var expression: LinearSmoother
    var pan: LinearSmoother

    init(sampleRate: Double) {
        volume = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: Self.controllerRampSeconds)
        expression = LinearSmoother(value: 1, sampleRate: sampleRate, rampSeconds: Self.controllerRampSeconds)
        pan = LinearSmoother(value: 0, sampleRate: sampleRate, rampSeconds: Self.controllerRampSeconds)
    }

    mutating func setVolume(_ value: Int) { volume.setTarget(Float(ControllerCurves.concaveGain(value))) }
    mutating func setExpression(_ value: Int) { expression.setTarget(Float(ControllerCurves.concaveGain(value))) }
    mutating func setPan(_ value: Int) { pan.setTarget(Float(ControllerCurves.pan(controllerValue: value))) }

    /// Moves the smoothers to the end of a chunk of `frames`.
    mutating func advance(frames: Int) {
        guard volume.isRamping || expression.isRamping || pan.isRamping else { return }
        for _ in 0..<frames {
            _ = volume.next()
            _ = expression.next()
            _ = pan.next()
        }
    }

    /// CC121 Reset All Controllers (RP-015: volume and pan are left alone).
    mutating func resetControllers() {
        bend = 0
        modWheel = 0
        sustainPedalDown = false
        expression.setTarget(1)
    }
}

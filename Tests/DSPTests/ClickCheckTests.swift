import AudioTestSupport
import Foundation
import Testing

/// The shared "no click" check fails on what it must fail on: a step, and silence.
@Suite struct ClickCheckTests {
    let tone = (0..<4800).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }

    @Test func aSmoothToneAboveTheFloorPasses() {
        Measure.expectNoClick(tone)
    }

    @Test func silenceFails() {
        withKnownIssue("all-zero output has no steps but is below the audibility floor") {
            Measure.expectNoClick([Float](repeating: 0, count: 4800))
        }
    }

    @Test func aStepFails() {
        var clicked = tone
        clicked[2400] += 0.01  // −40 dBFS: ten times the threshold
        withKnownIssue("a −40 dBFS step") {
            Measure.expectNoClick(clicked)
        }
    }
}

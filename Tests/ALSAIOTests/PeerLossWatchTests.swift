import ALSAIO
import Glibc
import Testing

@Suite struct PeerLossWatchTests {
    @Test func anXrunRightAfterARecoveryWithNothingMovedMeansThePeerIsGone() {
        var watch = PeerLossWatch(bufferFrames: 768, sampleRateHz: 48_000)
        let first = watch.xrunMeansLost()  // an underrun: recover it
        let second = watch.xrunMeansLost()  // again, with no frame written since: PipeWire died
        #expect(!first && second)
    }

    @Test func underrunsWithFramesBetweenAreOrdinary() {
        var watch = PeerLossWatch(bufferFrames: 768, sampleRateHz: 48_000)
        var lost = 0
        for _ in 0..<1000 {
            if watch.xrunMeansLost() { lost += 1 }
            watch.transferred()
        }
        #expect(lost == 0)
    }

    @Test func theStallLimitIsFourBuffersAndAtLeastTheFloor() {
        #expect(PeerLossWatch(bufferFrames: 768, sampleRateHz: 48_000).stallLimitNanoseconds == 2_000_000_000)
        #expect(PeerLossWatch(bufferFrames: 48_000, sampleRateHz: 48_000).stallLimitNanoseconds == 4_000_000_000)
        #expect(PeerLossWatch(bufferFrames: 768, sampleRateHz: 48_000).waitMilliseconds == 2000)
    }

    @Test func aStallCountsFromTheFirstWaitWithoutProgress() {
        var watch = PeerLossWatch(bufferFrames: 768, sampleRateHz: 48_000)
        let limit = watch.stallLimitNanoseconds
        let answers = [watch.stalled(now: 1_000), watch.stalled(now: 1_000 + limit - 1), watch.stalled(now: 1_000 + limit)]
        #expect(answers == [false, false, true])
        watch.transferred()  // frames moved: the clock starts again
        let after = [watch.stalled(now: 5 * limit), watch.stalled(now: 6 * limit - 1)]
        #expect(after == [false, false])
    }
}

@Suite struct PCMRouteTests {
    @Test func namesTheServerThatIsNotRunning() {
        #expect(
            PCMRoute.pipewire.serverAbsentExplanation(device: "default", code: -EHOSTDOWN)
                == "ALSA default goes to PipeWire, which is not running (Host is down)")
        #expect(
            PCMRoute.pulse.serverAbsentExplanation(device: "pulse", code: -ECONNREFUSED)
                == "ALSA's pulse device goes to PulseAudio, which is not running (Connection refused)")
    }

    @Test func saysNothingSpecialOfCardsOrOtherErrors() {
        #expect(PCMRoute.other(type: "hw").serverAbsentExplanation(device: "hw:0", code: -ENOENT) == nil)
        #expect(PCMRoute.pipewire.serverAbsentExplanation(device: "default", code: -EINVAL) == nil)
    }

    @Test func readsTheTypeFromALSAsConfiguration() {
        #expect(PCMRoute.of("null") == .other(type: "null"))
        #expect(PCMRoute.of("no-such-pcm-anywhere") == .undefined)
    }

    @Test func theGrantSaysWhatWasAskedAndWhoGrantedIt() {
        let granted = PCMConfiguration(
            deviceName: "pipewire", direction: .playback, sampleRateHz: 48_000, channels: 2, format: .float32LE,
            periodFrames: 64, bufferFrames: 192, requestedPeriodFrames: 64, requestedPeriodCount: 3, route: .pipewire)
        #expect(granted.grant == "asked 64×3, got 64×3 from the pipewire plugin")
        let card = PCMConfiguration(
            deviceName: "hw:0", direction: .playback, sampleRateHz: 48_000, channels: 2, format: .signed16LE,
            periodFrames: 240, bufferFrames: 720, requestedPeriodFrames: 256, requestedPeriodCount: 3, route: .other(type: "hw"))
        #expect(card.grant == "asked 256×3, got 240×3 from ALSA (hw)")
    }
}

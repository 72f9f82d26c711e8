import ALSAIO
import Testing

@Suite struct ReopenBackoffTests {
    @Test func doublesUpToTheMaximumAndRestartsAfterSuccess() {
        var backoff = ReopenBackoff(initialSeconds: 0.1, maximumSeconds: 1)
        let delays = (0..<6).map { _ in backoff.nextDelaySeconds() }
        #expect(delays == [0.1, 0.2, 0.4, 0.8, 1, 1])
        #expect(backoff.attempts == 6)
        backoff.reset()
        #expect(backoff.nextDelaySeconds() == 0.1)
    }

    @Test func manyFailuresNeverOverflow() {
        var backoff = ReopenBackoff(initialSeconds: 0.5, maximumSeconds: 30)
        for _ in 0..<1000 { _ = backoff.nextDelaySeconds() }
        #expect(backoff.nextDelaySeconds() == 30)
    }
}

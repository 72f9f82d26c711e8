import PanelProtocol
import Testing

@Suite struct PanelClientTests {
    @Test func appliesValidMessagesAndNothingOfRefusedOnes() {
        let backend = FakeBackend()
        var client = PanelClient()
        let good = #"{"type":"set","name":"bus.mic.gain","value":-3}"#, bad = #"{"type":"set","name":"bus.mic.gain","value":99}"#
        #expect(client.receive(Array(good.utf8), backend: backend, parameters: backend.byName, now: 0) == nil)
        let reply = client.receive(Array(bad.utf8), backend: backend, parameters: backend.byName, now: 1)
        #expect(reply?.contains(#""type":"error""#) == true)
        #expect(backend.recorded == ["set bus.mic.gain -3.0"])
        #expect(client.applied == 1 && client.refused == 1)
    }

    /// A flood of 10,000 messages in one virtual second: at most the burst plus one second's rate is
    /// applied, and at most a handful of error frames go back.
    @Test func rateLimitsMessagesAndErrorReplies() {
        let backend = FakeBackend()
        var client = PanelClient()
        let message = Array(#"{"type":"note","note":60,"velocity":0}"#.utf8)
        var replies = 0
        for i in 0..<10_000 {
            if client.receive(message, backend: backend, parameters: backend.byName, now: UInt64(i) * 100_000) != nil { replies += 1 }
        }
        let allowed = Int(PanelClient.messageBurst + PanelClient.messagesPerSecond) + 1
        #expect(backend.recorded.count <= allowed)
        #expect(backend.recorded.count >= Int(PanelClient.messageBurst))
        #expect(replies <= 8)
    }

    @Test func rateLimiterRefillsWithTime() {
        var limiter = RateLimiter(perSecond: 10, burst: 2)
        // At 0 s: the burst of 2, then nothing; half a token later still nothing; a whole one later, one;
        // time going backwards gives nothing.
        let answers = [0, 0, 0, 50_000_000, 100_000_000, 90_000_000].map { limiter.allow(now: UInt64($0)) }
        #expect(answers == [true, true, false, false, true, false])
    }

    @Test func boundsOpenSocketsAndAddressTable() {
        let limits = ClientLimits()
        for _ in 0..<ClientLimits.maxSockets { #expect(limits.openSocket()) }
        #expect(!limits.openSocket())
        limits.closeSocket()
        #expect(limits.openSocket())
        var refused = 0
        for i in 0..<1000 where !limits.allowRequest(from: "127.0.0.1", now: UInt64(i) * 1_000_000) { refused += 1 }
        #expect(refused >= 1000 - Int(ClientLimits.requestBurst + ClientLimits.requestsPerSecond) - 1)
        for i in 0..<10_000 { _ = limits.allowRequest(from: "10.0.\(i / 256).\(i % 256)", now: 0) }  // the table stays bounded
    }

    @Test func framesAreJSONWithAType() {
        #expect(PanelFrames.state(FakeBackend().state()).hasPrefix(#"{"state":"#) || PanelFrames.state(FakeBackend().state()).contains(#""type":"state""#))
        #expect(PanelFrames.hello(parameters: FakeBackend().parameters).contains(#""name":"mic.effect""#))
        #expect(PanelFrames.state(FakeBackend().state()).contains(#""pitchNote":"A4""#))
    }
}

import AudioTestSupport
import PanelProtocol
import Testing

@Suite struct PanelCommandTests {
    let parameters = FakeBackend().byName

    func parse(_ text: String) throws(PanelError) -> PanelCommand { try PanelCommand(parsing: Array(text.utf8), parameters: parameters) }

    func refusal(_ text: String) -> String? { errorText { _ = try parse(text) } }

    @Test func acceptsTheThreeMessagesThePageSends() throws {
        #expect(try parse(#"{"type":"set","name":"bus.mic.gain","value":-6.5}"#) == .set(name: "bus.mic.gain", value: -6.5))
        #expect(try parse(#"{"type":"note","note":60,"velocity":100}"#) == .note(channel: 0, note: 60, velocity: 100))
        #expect(try parse(#"{"type":"note","note":61,"velocity":0,"channel":16}"#) == .note(channel: 15, note: 61, velocity: 0))
        #expect(try parse(#"{"type":"panic"}"#) == .panic)
    }

    @Test func integersAndChoicesAreRoundedAsTheEngineStoresThem() throws {
        #expect(try parse(#"{"type":"set","name":"mic.average.points","value":9.4}"#) == .set(name: "mic.average.points", value: 9))
        #expect(try parse(#"{"type":"set","name":"mic.effect","value":2}"#) == .set(name: "mic.effect", value: 2))
    }

    @Test func refusesEachKindOfBadMessageWithItsReason() {
        let cases: [(String, String)] = [
            (#"{"type":"set","name":"bus.nope.gain","value":1}"#, "unknown parameter 'bus.nope.gain'"),
            (#"{"type":"set","name":"bus.mic.gain","value":13}"#, "bus.mic.gain must be between -60 and 12 dB (got 13)"),
            (#"{"type":"set","name":"bus.mic.gain","value":"loud"}"#, "\"value\" must be a number, got text"),
            (#"{"type":"set","name":"bus.mic.gain"}"#, "set needs \"value\""),
            (#"{"type":"set","name":"mic.effect","value":3}"#, "mic.effect must be between 0 and 2"),
            (#"{"type":"set","name":"bus.mic.gain","value":1,"path":"/etc/passwd"}"#, "set: unknown key 'path'"),
            (#"{"type":"note","note":128,"velocity":1}"#, "\"note\" must be a whole number 0–127"),
            (#"{"type":"note","note":60.5,"velocity":1}"#, "\"note\" must be a whole number 0–127"),
            (#"{"type":"note","note":60,"velocity":1,"channel":0}"#, "\"channel\" must be a whole number 1–16"),
            (#"{"type":"load","file":"/tmp/x"}"#, "unknown message type 'load'"),
            (#"{"name":"bus.mic.gain"}"#, "message needs \"type\""),
            (#"[1,2]"#, "must be a JSON object, got a list"),
            (#"{"type":"set","#, "message is not JSON"),
            ("\u{0}\u{1}garbage", "message is not JSON"),
        ]
        for (text, expected) in cases {
            let reason = refusal(text)
            #expect(reason?.contains(expected) == true, "\(text) → \(reason ?? "accepted")")
        }
    }

    @Test func refusesOversizedMessagesBeforeParsing() {
        let padding = String(repeating: " ", count: PanelCommand.maxBytes)
        #expect(refusal(#"{"type":"panic"}"# + padding)?.contains("refused (at most 512)") == true)
    }

    @Test func quotesHostileTextOnOneShortLine() {
        let reason = refusal(#"{"type":"set","name":"a\nb\u0007"# + String(repeating: "x", count: 500) + #"","value":1}"#) ?? ""
        #expect(!reason.contains("\n"))
        #expect(reason.count < 120)
    }
}

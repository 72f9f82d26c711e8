import MIDI
import Testing

@Suite struct NoteNameTests {
    @Test(arguments: [
        ("C4", 60), ("A4", 69), ("F#3", 54), ("Bb2", 46), ("c-1", 0), ("G9", 127), ("60", 60), (" e♭5 ", 75),
        ("B#3", 60), ("Cb4", 59), ("b2", 47), ("bb2", 46), ("0", 0), ("127", 127),
    ])
    func parses(text: String, note: Int) {
        #expect(NoteName.parse(text) == note)
    }

    @Test(arguments: ["", "H4", "C", "G#9", "C-2", "128", "-1", "C4x", "#4", "60.5"])
    func rejects(text: String) {
        #expect(NoteName.parse(text) == nil)
    }

    @Test func namesRoundTripThroughParse() {
        for note in 0...127 {
            #expect(NoteName.parse(NoteName.name(of: note)) == note)
        }
        #expect(NoteName.name(of: 60) == "C4")
        #expect(NoteName.name(of: 0) == "C-1")
        #expect(NoteName.name(of: 61) == "C#4")
    }

    @Test func frequenciesFollowEqualTemperament() {
        #expect(noteFrequency(69) == 440)
        #expect(abs(noteFrequency(60) - 261.625_565_300_6) < 1e-9)
        #expect(abs(noteFrequency(81) - 880) < 1e-9)
        #expect(abs(noteFrequency(69.5) / 440 - 1.029_302_236_643_492) < 1e-12)  // a quarter tone = 2^(1/24)
    }
}

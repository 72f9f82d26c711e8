import Presets
import Testing

@Suite("Property list parser")
struct PropertyListTests {
    let path = "/tmp/x.plist"

    @Test func parsesEveryValueTypeKeepingKeyOrder() throws {
        let bytes = PresetFixtures.plist(
            """
            <dict>
                <key>z last-sorted first</key><string>a &amp; b &lt;c&gt; &#x41;&#66;</string>
                <key>big</key><integer>4611686018427387904</integer>
                <key>negative</key><integer>-12</integer>
                <key>real</key><real>0.50800001621246338</real>
                <key>yes</key><true/>
                <key>no</key><false/>
                <key>blob</key><data>
                    AAAAAAAAAAAAAAAE
                \tAAADhA==
                </data>
                <key>when</key><date>2011-05-30T12:00:00Z</date>
                <key>emptyDict</key><dict/>
                <key>emptyArray</key><array/>
                <key>emptyString</key><string></string>
                <key>nested</key><array><dict><key>k</key><integer>1</integer></dict><array/></array>
            </dict>
            """)
        let value = try PropertyList.parse(data: bytes, path: path)
        let keys = value.dictionaryEntries?.map(\.key)
        #expect(
            keys == [
                "z last-sorted first", "big", "negative", "real", "yes", "no", "blob", "when", "emptyDict",
                "emptyArray", "emptyString", "nested",
            ])
        #expect(value["z last-sorted first"] == .string("a & b <c> AB"))
        #expect(value["big"] == .integer(1 << 62))
        #expect(value["negative"] == .integer(-12))
        #expect(value["real"] == .real(0.50800001621246338))
        #expect(value["yes"] == .bool(true))
        #expect(value["no"] == .bool(false))
        #expect(value["blob"] == .data([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 3, 0x84]))
        #expect(value["when"] == .date("2011-05-30T12:00:00Z"))
        #expect(value["emptyDict"] == .dictionary([]))
        #expect(value["emptyArray"] == .array([]))
        #expect(value["emptyString"] == .string(""))
        #expect(value["nested"] == .array([.dictionary([.init(key: "k", value: .integer(1))]), .array([])]))
    }

    @Test func numberAccessorsAcceptIntegerAndRealInterchangeably() {
        #expect(PropertyList.integer(3).doubleValue == 3.0)
        #expect(PropertyList.real(818_937_856).integerValue == 818_937_856)
        #expect(PropertyList.real(0.5).integerValue == nil)
        #expect(PropertyList.real(1e300).integerValue == nil)
        #expect(PropertyList.string("3").doubleValue == nil)
    }

    @Test func binaryPlistIsRejectedWithItsOwnError() {
        let bytes = Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x51]
        #expect(throws: PresetError.binaryPropertyList(path: path)) { try PropertyList.parse(data: bytes, path: path) }
        #expect(PresetError.binaryPropertyList(path: path).description.contains("bplist00"))
    }

    @Test func xmlThatIsNotAPlistNamesTheRootElement() {
        let bytes = Array("<?xml version=\"1.0\"?>\n<html><body/></html>".utf8)
        guard case .notAPropertyList(let file, let location, let message)? = parseError(bytes) else {
            Issue.record("expected notAPropertyList")
            return
        }
        #expect(file == path)
        #expect(location == "line 2")
        #expect(message == "root element is <html>, expected <plist>")
    }

    @Test func unknownElementInsideAPlistIsReportedWithItsLine() {
        let bytes = PresetFixtures.plist("<dict>\n<key>a</key>\n<float>1</float>\n</dict>")
        guard case .notAPropertyList(_, let location, let message)? = parseError(bytes) else {
            Issue.record("expected notAPropertyList")
            return
        }
        // The fixture header takes lines 1–3, so <float> is on line 6.
        #expect(location == "line 6, <float>")
        #expect(message == "<float> is not a property list element")
    }

    @Test func keyWithoutValueAndBadNumbersAreErrors() {
        for body in [
            "<dict><key>a</key></dict>", "<dict><integer>1</integer></dict>", "<integer>12x</integer>",
            "<real>one</real>", "<data>!!!!</data>", "<plist/>",
        ] {
            guard case .notAPropertyList? = parseError(PresetFixtures.plist(body)) else {
                Issue.record("expected notAPropertyList for \(body)")
                continue
            }
        }
    }

    @Test func malformedXMLGivesTheLineAndLibxmlReason() {
        let bytes = PresetFixtures.plist("<dict>\n<key>a</key>\n<string>unclosed\n</dict>")
        guard case .malformedXML(let file, let line, let message)? = parseError(bytes) else {
            Issue.record("expected malformedXML")
            return
        }
        #expect(file == path)
        #expect(line >= 6)
        #expect(!message.isEmpty)
    }

    @Test func nonXMLAndEmptyInputAreMalformedXML() {
        for bytes in [Array("hello, not xml".utf8), [0x00, 0xFF, 0x13, 0x37], []] {
            guard case .malformedXML? = parseError(bytes) else {
                Issue.record("expected malformedXML for \(bytes.prefix(8))")
                continue
            }
        }
    }

    @Test func customEntitiesAreNotExpanded() {
        let bytes = Array(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY boom "boom boom boom">]>
            <plist version="1.0"><string>&boom;</string></plist>
            """.utf8)
        guard case .notAPropertyList(_, _, let message)? = parseError(bytes) else {
            Issue.record("expected notAPropertyList")
            return
        }
        #expect(message == "entity references are not supported")
    }

    private func parseError(_ bytes: [UInt8]) -> PresetError? {
        do {
            _ = try PropertyList.parse(data: bytes, path: path)
            return nil
        } catch {
            return error
        }
    }
}

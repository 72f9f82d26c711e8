import Presets

/// Builders for the small presets the tests write inline. Every preset here is made by us in
/// AU's style (sorted keys, `<real>`/`<integer>` where AU writes them) unless a test swaps them.
enum PresetFixtures {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static func plist(_ body: String) -> [UInt8] {
        Array((header + body + "\n</plist>\n").utf8)
    }

    /// A sampler preset; `top` adds/overrides top-level entries placed before the standard ones.
    static func sampler(
        layers: String, references: String = "", top: String = "", name: String = "Test",
        subtype: Int = 1_935_764_848
    ) -> [UInt8] {
        plist(
            """
            <dict>
                \(top)
                <key>Instrument</key>
                <dict>
                    <key>Layers</key>
                    <array>\(layers)</array>
                    <key>name</key>
                    <string>Default Instrument</string>
                </dict>
                <key>file-references</key>
                <dict>\(references)</dict>
                <key>manufacturer</key>
                <integer>1634758764</integer>
                <key>name</key>
                <string>\(name)</string>
                <key>subtype</key>
                <integer>\(subtype)</integer>
                <key>type</key>
                <integer>1635085685</integer>
                <key>version</key>
                <integer>0</integer>
            </dict>
            """)
    }

    /// A layer dict; `extra` holds further layer keys (Connections, Envelopes, …).
    static func layer(id: Int = 0, extra: String = "", zones: String) -> String {
        """
        <dict>
            <key>ID</key>
            <integer>\(id)</integer>
            \(extra)
            <key>Zones</key>
            <array>\(zones)</array>
        </dict>
        """
    }

    /// A zone dict with the given ID and waveform plus extra keys.
    static func zone(id: Int, waveform: Int, _ extra: String = "") -> String {
        """
        <dict>
            <key>ID</key>
            <integer>\(id)</integer>
            <key>enabled</key>
            <true/>
            \(extra)
            <key>waveform</key>
            <integer>\(waveform)</integer>
        </dict>
        """
    }

    static func reference(_ number: Int, _ path: String) -> String {
        "<key>Sample:\(number)</key><string>\(path)</string>"
    }

    /// Decodes, failing the calling test with the error's description if it throws.
    static func decode(_ bytes: [UInt8], path: String = "/presets/Test.aupreset") throws -> AUPreset {
        do {
            return try AUPreset.parse(data: bytes, path: path)
        } catch {
            throw FixtureError(description: error.description)
        }
    }

    static func error(_ bytes: [UInt8], path: String = "/presets/Test.aupreset") -> PresetError? {
        do {
            _ = try AUPreset.parse(data: bytes, path: path)
            return nil
        } catch {
            return error
        }
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

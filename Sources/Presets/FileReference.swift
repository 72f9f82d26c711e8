/// How a `file-references` value names a file, after undoing the URL form.
///
/// Values are plain POSIX paths (absolute or relative) or `file:` URLs: `file:///Sounds/a.wav`,
/// `file://localhost/Library/…`, `file://localhost//Library/…/1a%23.caf` (doubled slash,
/// percent escapes). A raw `#` starts a fragment, which makes CFURL drop the rest of the path;
/// AUSampler then fails, we note it and still try the path literally.
struct FileReference: Equatable {
    /// The file-system path the value stands for (percent-decoded, slashes collapsed).
    var path: String
    /// A human note on the form, e.g. "file URL"; `nil` for a plain path.
    var form: String?

    init(_ value: String) {
        guard let colon = value.firstIndex(of: ":"), value[..<colon].lowercased() == "file" else {
            path = value
            form = nil
            return
        }
        var rest = value[value.index(after: colon)...]
        var form = "file URL"
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<authorityEnd]
            if !host.isEmpty && host.lowercased() != "localhost" {
                form = "file URL with host \"\(host)\" (not local; tried as a local path)"
            }
            rest = rest[authorityEnd...]
        }
        if rest.contains("#") {
            form = "file URL with a raw '#' (a URL fragment to CFURL; tried literally)"
        }
        path = Self.collapsingSlashes(Self.percentDecoded(String(rest)))
        if path.isEmpty { path = "/" }
        self.form = form
    }

    /// `%XX` → byte; malformed escapes are kept as written.
    static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static func collapsingSlashes(_ path: String) -> String {
        var result = ""
        var previousWasSlash = false
        for character in path {
            if character == "/" && previousWasSlash { continue }
            previousWasSlash = character == "/"
            result.append(character)
        }
        return result
    }
}

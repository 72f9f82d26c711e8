import CLibXML2

extension PropertyList {
    /// Parses an XML property list.
    ///
    /// libxml2 reads it with `XML_PARSE_NONET` (the DOCTYPE's DTD is never fetched) and without
    /// `XML_PARSE_NOENT`, so only the predefined entities and character references are expanded;
    /// any other entity reference is rejected. A binary plist (`bplist00`), bytes that are not
    /// XML, and XML that is not a plist each give a distinct `PresetError`.
    ///
    /// Control thread only (allocates, calls libxml2).
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - path: used in error messages only.
    public static func parse(data: [UInt8], path: String) throws(PresetError) -> PropertyList {
        if data.starts(with: Array("bplist00".utf8)) { throw .binaryPropertyList(path: path) }
        guard !data.isEmpty else { throw .malformedXML(path: path, line: 0, message: "the file is empty") }
        guard let length = Int32(exactly: data.count) else {
            throw .malformedXML(path: path, line: 0, message: "file too large (\(data.count) bytes)")
        }
        _ = libxml2Initialized
        guard let context = xmlNewParserCtxt() else {
            throw .malformedXML(path: path, line: 0, message: "libxml2 could not create a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_NOERROR.rawValue
                | XML_PARSE_NOWARNING.rawValue)
        let document = data.withUnsafeBufferPointer { buffer -> xmlDocPtr? in
            guard let base = buffer.baseAddress else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCtxtReadMemory(context, $0, length, path, nil, options)
            }
        }
        guard let document else { throw malformedXMLError(context: context, path: path) }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw .malformedXML(path: path, line: 0, message: "no root element")
        }
        let walker = PropertyListTreeWalker(path: path)
        guard walker.name(of: root) == "plist" else {
            throw .notAPropertyList(
                path: path, location: "line \(xmlGetLineNo(root))",
                message: "root element is <\(walker.name(of: root))>, expected <plist>")
        }
        let values = try walker.elementChildren(of: root)
        guard values.count == 1 else {
            throw .notAPropertyList(
                path: path, location: "line \(xmlGetLineNo(root))",
                message: "<plist> must hold exactly one value, found \(values.count)")
        }
        return try walker.value(of: values[0])
    }

    /// libxml2's global set-up is not safe to race on first use (tests parse in parallel), so it
    /// runs exactly once, guarded by Swift's thread-safe lazy static initialisation.
    private static let libxml2Initialized: Void = xmlInitParser()

    private static func malformedXMLError(context: xmlParserCtxtPtr, path: String) -> PresetError {
        guard let error = xmlCtxtGetLastError(context) else {
            return .malformedXML(path: path, line: 0, message: "libxml2 gave no reason")
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let trimmed = String(message.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
        return .malformedXML(path: path, line: Int(error.pointee.line), message: trimmed)
    }
}

/// Turns a libxml2 element tree into `PropertyList` values. Recursion depth is bounded by
/// libxml2's own nesting limit (256 without `XML_PARSE_HUGE`).
private struct PropertyListTreeWalker {
    let path: String

    func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    func failure(_ node: xmlNodePtr, _ message: String) -> PresetError {
        .notAPropertyList(path: path, location: "line \(xmlGetLineNo(node)), <\(name(of: node))>", message: message)
    }

    /// Element children in order; comments and processing instructions are skipped, stray
    /// non-blank text is an error.
    func elementChildren(of node: xmlNodePtr) throws(PresetError) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        try visitChildren(
            of: node, element: { result.append($0) },
            text: { (text) throws(PresetError) in
                if text.contains(where: { !$0.isWhitespace }) {
                    throw failure(node, "unexpected text \"\(text.prefix(40))\"")
                }
            })
        return result
    }

    /// The text of a leaf element (text and CDATA children joined); other entity references
    /// than the predefined ones are rejected rather than expanded.
    func text(of node: xmlNodePtr) throws(PresetError) -> String {
        var text = ""
        try visitChildren(
            of: node,
            element: { (child) throws(PresetError) in throw failure(node, "unexpected element <\(name(of: child))> inside a value") },
            text: { text += $0 })
        return text
    }

    /// Hands `node`'s children, in order, to `element` or (text and CDATA) to `text`; comments and
    /// processing instructions are skipped, an entity reference is an error.
    private func visitChildren(
        of node: xmlNodePtr, element: (xmlNodePtr) throws(PresetError) -> Void, text: (String) throws(PresetError) -> Void
    ) throws(PresetError) {
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                try element(current)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                try text(current.pointee.content.map { String(cString: $0) } ?? "")
            case XML_ENTITY_REF_NODE:
                throw failure(node, "entity references are not supported")
            default:
                break
            }
            child = current.pointee.next
        }
    }

    func value(of node: xmlNodePtr) throws(PresetError) -> PropertyList {
        switch name(of: node) {
        case "dict": return try dictionary(node)
        case "array":
            var elements: [PropertyList] = []
            for child in try elementChildren(of: node) { elements.append(try value(of: child)) }
            return .array(elements)
        case "integer":
            let text = try text(of: node).trimmingWhitespace()
            guard let number = Int64(text) else { throw failure(node, "\"\(text)\" is not an integer") }
            return .integer(number)
        case "real":
            let text = try text(of: node).trimmingWhitespace()
            guard let number = Double(text) else { throw failure(node, "\"\(text)\" is not a number") }
            return .real(number)
        case "string": return .string(try text(of: node))
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "data":
            guard let bytes = Base64.decode(try text(of: node)) else { throw failure(node, "invalid base64") }
            return .data(bytes)
        case "date": return .date(try text(of: node).trimmingWhitespace())
        case let other: throw failure(node, "<\(other)> is not a property list element")
        }
    }

    private func dictionary(_ node: xmlNodePtr) throws(PresetError) -> PropertyList {
        let children = try elementChildren(of: node)
        var entries: [PropertyList.Entry] = []
        entries.reserveCapacity(children.count / 2)
        var index = 0
        while index < children.count {
            let keyNode = children[index]
            guard name(of: keyNode) == "key" else {
                throw failure(keyNode, "expected <key> in <dict>, found <\(name(of: keyNode))>")
            }
            let key = try text(of: keyNode)
            guard index + 1 < children.count else { throw failure(keyNode, "key \"\(key)\" has no value") }
            entries.append(PropertyList.Entry(key: key, value: try value(of: children[index + 1])))
            index += 2
        }
        return .dictionary(entries)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        // Index-based: reversing the characters twice made this half of a preset's parse time.
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return first == startIndex && last == index(before: endIndex) ? self : String(self[first...last])
    }
}

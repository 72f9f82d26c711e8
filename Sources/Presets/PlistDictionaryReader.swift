/// Typed, key-path-aware access to one plist dictionary of a preset. Absent keys give `nil`;
/// present keys of the wrong type throw `PresetError.invalidValue` naming the full key path.
/// Numbers are read leniently (`<integer>` ↔ `<real>`), as real presets swap them.
struct PlistDictionaryReader {
    let file: String
    /// e.g. `Instrument.Layers[0]`; empty for the root.
    let keyPath: String
    let entries: [PropertyList.Entry]

    init(_ value: PropertyList, keyPath: String, file: String) throws(PresetError) {
        guard case .dictionary(let entries) = value else {
            throw .invalidValue(
                path: file, keyPath: keyPath.isEmpty ? "(root)" : keyPath, expected: "dict", found: value.typeName)
        }
        self.file = file
        self.keyPath = keyPath
        self.entries = entries
    }

    func path(_ key: String) -> String { keyPath.isEmpty ? key : "\(keyPath).\(key)" }

    func value(_ key: String) -> PropertyList? { entries.first { $0.key == key }?.value }

    func has(_ key: String) -> Bool { value(key) != nil }

    private func mismatch(_ key: String, expected: String, found: PropertyList) -> PresetError {
        let shown: String
        switch found {
        case .integer(let number): shown = "integer \(number)"
        case .real(let number): shown = "real \(number)"
        case .string(let text): shown = "string \"\(text.prefix(40))\""
        default: shown = found.typeName
        }
        return .invalidValue(path: file, keyPath: path(key), expected: expected, found: shown)
    }

    func double(_ key: String) throws(PresetError) -> Double? {
        guard let found = value(key) else { return nil }
        guard let number = found.doubleValue, number.isFinite else {
            throw mismatch(key, expected: "a number", found: found)
        }
        return number
    }

    /// An integer that fits `Int`; an integral `<real>` is accepted.
    func integer(_ key: String) throws(PresetError) -> Int? {
        guard let found = value(key) else { return nil }
        guard let number = found.integerValue, let result = Int(exactly: number) else {
            throw mismatch(key, expected: "an integer", found: found)
        }
        return result
    }

    /// `<true/>`/`<false/>`; an integer 0/1 is accepted too (hand-edited files).
    func bool(_ key: String) throws(PresetError) -> Bool? {
        guard let found = value(key) else { return nil }
        if let flag = found.boolValue { return flag }
        if let number = found.integerValue, number == 0 || number == 1 { return number == 1 }
        throw mismatch(key, expected: "true or false", found: found)
    }

    func string(_ key: String) throws(PresetError) -> String? {
        guard let found = value(key) else { return nil }
        guard let text = found.stringValue else { throw mismatch(key, expected: "a string", found: found) }
        return text
    }

    func dictionary(_ key: String) throws(PresetError) -> PlistDictionaryReader? {
        guard let found = value(key) else { return nil }
        return try PlistDictionaryReader(found, keyPath: path(key), file: file)
    }

    func array(_ key: String) throws(PresetError) -> [PropertyList]? {
        guard let found = value(key) else { return nil }
        guard let elements = found.arrayElements else { throw mismatch(key, expected: "an array", found: found) }
        return elements
    }

    /// The dictionaries of an array-valued key, each with its `key[i]` path.
    func dictionaries(inArray key: String) throws(PresetError) -> [PlistDictionaryReader]? {
        guard let elements = try array(key) else { return nil }
        var readers: [PlistDictionaryReader] = []
        for (index, element) in elements.enumerated() {
            readers.append(try PlistDictionaryReader(element, keyPath: "\(path(key))[\(index)]", file: file))
        }
        return readers
    }
}

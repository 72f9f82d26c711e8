/// Which (key, velocity) cells of one layer sound, and through which enabled zones.
///
/// Played keys are mapped with `Layer.zoneKey(forPlayedKey:)` (layer key range, then `key offset`).
/// Pure data: any thread may read it.
public struct KeyboardCoverage: Sendable, Equatable {
    public let layerID: Int
    /// `zoneCounts[velocity * 128 + key]`: how many enabled zones sound for that played note.
    public let zoneCounts: [Int]
    /// `firstZoneIndex[velocity * 128 + key]`: index into the layer's `zones` of the first zone
    /// sounding there, or −1.
    public let firstZoneIndex: [Int]
    /// The layer's zone IDs by index (for the map legend).
    public let zoneIDs: [Int]
    /// Inclusive velocity bands within which no zone starts or stops: one map row each.
    public let velocityBands: [ClosedRange<Int>]

    public init(layer: Layer) {
        layerID = layer.id
        zoneIDs = layer.zones.map(\.id)
        var counts = [Int](repeating: 0, count: 128 * 128)
        var first = [Int](repeating: -1, count: 128 * 128)
        var bandStarts: Set<Int> = [0]
        for (index, zone) in layer.zones.enumerated() where zone.enabled {
            let low = max(zone.minVelocity, 0)
            let high = min(zone.maxVelocity, 127)
            guard low <= high else { continue }
            bandStarts.insert(low)
            if high < 127 { bandStarts.insert(high + 1) }
            for key in 0..<128 {
                guard let zoneKey = layer.zoneKey(forPlayedKey: key), zone.minKey <= zoneKey && zoneKey <= zone.maxKey
                else { continue }
                for velocity in low...high {
                    counts[velocity * 128 + key] += 1
                    if first[velocity * 128 + key] < 0 { first[velocity * 128 + key] = index }
                }
            }
        }
        zoneCounts = counts
        firstZoneIndex = first
        let starts = bandStarts.sorted()
        velocityBands = starts.indices.map { starts[$0]...((($0 + 1) < starts.count ? starts[$0 + 1] : 128) - 1) }
    }

    /// Zones sounding for a played note (0 outside 0…127).
    public func count(key: Int, velocity: Int) -> Int {
        guard (0...127).contains(key), (0...127).contains(velocity) else { return 0 }
        return zoneCounts[velocity * 128 + key]
    }

    /// Played keys (0…127) that sound at no velocity at all.
    public var silentKeys: [Int] {
        (0..<128).filter { key in (0..<128).allSatisfy { zoneCounts[$0 * 128 + key] == 0 } }
    }

    /// Map symbol of the zone at `index`: a–z, then A–Z, then `#`.
    public static func symbol(forZoneIndex index: Int) -> Character {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < letters.count ? letters[index] : "#"
    }

    /// The text map: an octave ruler, one row per velocity band with a character per key
    /// (`.` silent, a letter = the one zone sounding, `2`–`9` = that many zones stacked, `*` more),
    /// and a legend of the letters used.
    public func textRows(indent: String = "") -> [String] {
        let label = { (band: ClosedRange<Int>) in
            "vel \(Self.padded(band.lowerBound, 3))-\(Self.padded(band.upperBound, 3)) "
        }
        let labelWidth = label(0...0).count
        var ruler = ""
        for octave in -1...9 {
            let text = "C\(octave)"
            ruler += text + String(repeating: " ", count: max(0, min(12, 128 - 12 * (octave + 1)) - text.count))
        }
        var rows = [indent + String(repeating: " ", count: labelWidth) + ruler.trimmingWhitespace()]
        var usedZones = Set<Int>()
        for band in velocityBands {
            var row = indent + label(band)
            for key in 0..<128 {
                let cell = band.lowerBound * 128 + key
                switch zoneCounts[cell] {
                case 0: row.append(".")
                case 1:
                    usedZones.insert(firstZoneIndex[cell])
                    row.append(Self.symbol(forZoneIndex: firstZoneIndex[cell]))
                case 2...9: row.append(Character(String(zoneCounts[cell])))
                default: row.append("*")
                }
            }
            rows.append(row)
        }
        if !usedZones.isEmpty {
            let legend = usedZones.sorted().map { "\(Self.symbol(forZoneIndex: $0)) = zone \(zoneIDs[$0])" }
            rows.append(indent + String(repeating: " ", count: labelWidth) + legend.joined(separator: ", "))
        }
        return rows
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension AUPreset {
    /// Per layer (file order), which (key, velocity) cells enabled zones cover. Control thread.
    public func coverageMap() -> [KeyboardCoverage] { layers.map(KeyboardCoverage.init(layer:)) }
}

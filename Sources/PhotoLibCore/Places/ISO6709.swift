/// Where a video says it was taken, as phones write it: an ISO 6709 point ("+48.8584+002.2945+035.000/")
/// in QuickTime's `©xyz` atom (Android's MP4s) or Apple's `com.apple.quicktime.location.ISO6709` key
/// (an iPhone's MOVs), which exiv2 does not read.
///
/// Latitude then longitude, each signed, as degrees ("+48.8584"), degrees and minutes ("+4851.504")
/// or degrees, minutes and seconds ("+485130.24"), told apart by the digits before the point (2, 4
/// or 6 for latitude; 3, 5 or 7 for longitude); an altitude and the closing "/" or a CRS may follow.
public enum ISO6709 {
    public static func coordinate(_ text: String) -> GeoCoordinate? {
        let characters = Array(text.utf8)
        var at = 0
        guard let latitude = component(characters, &at, degreeDigits: 2), let longitude = component(characters, &at, degreeDigits: 3) else {
            return nil
        }
        // What may follow: an altitude, then "/" or "CRS…"; anything else is not this format.
        if at < characters.count, !"+-/C".utf8.contains(characters[at]) { return nil }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// One signed component; `at` moves past it. nil when it is not one of the three forms.
    private static func component(_ characters: [UInt8], _ at: inout Int, degreeDigits: Int) -> Double? {
        guard at < characters.count, characters[at] == UInt8(ascii: "+") || characters[at] == UInt8(ascii: "-") else { return nil }
        let negative = characters[at] == UInt8(ascii: "-")
        at += 1
        let start = at
        while at < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[at]) { at += 1 }
        let whole = Array(characters[start..<at])
        var fraction: [UInt8] = []
        if at < characters.count, characters[at] == UInt8(ascii: ".") {
            at += 1
            let fractionStart = at
            while at < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[at]) { at += 1 }
            fraction = Array(characters[fractionStart..<at])
            guard !fraction.isEmpty else { return nil }
        }
        // Degrees, then minutes and seconds of two digits each; the fraction belongs to the last.
        let parts: Int
        switch whole.count {
        case degreeDigits: parts = 1
        case degreeDigits + 2: parts = 2
        case degreeDigits + 4: parts = 3
        default: return nil
        }
        var values: [Double] = []
        var cursor = 0
        for part in 0..<parts {
            let length = part == 0 ? degreeDigits : 2
            var digits = String(decoding: whole[cursor..<cursor + length], as: UTF8.self)
            if part == parts - 1, !fraction.isEmpty { digits += "." + String(decoding: fraction, as: UTF8.self) }
            guard let value = Double(digits) else { return nil }
            values.append(value)
            cursor += length
        }
        if parts >= 2, values[1] >= 60 { return nil }
        if parts == 3, values[2] >= 60 { return nil }
        let degrees = values.enumerated().reduce(0.0) { $0 + $1.element / [1, 60, 3600][$1.offset] }
        return negative ? -degrees : degrees
    }
}

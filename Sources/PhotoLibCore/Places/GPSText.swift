/// Reads where a photo was taken from its metadata's text, as exiv2 prints it.
///
/// Exif writes degrees, minutes and seconds as three rationals ("48/1 6/1 4312/100") and the
/// hemisphere apart ("N", "S", "E", "W"); XMP writes "48,6.72N" (degrees, decimal minutes) or
/// "48,6,43.12N". Anything else, a zero denominator, or a value out of range is no location.
public enum GPSText {
    /// From Exif's rationals and references.
    public static func exif(latitude: String, latitudeRef: String, longitude: String, longitudeRef: String) -> GeoCoordinate? {
        guard let north = rationalDegrees(latitude), let east = rationalDegrees(longitude),
              let latitudeSign = sign(latitudeRef, positive: "N", negative: "S"),
              let longitudeSign = sign(longitudeRef, positive: "E", negative: "W") else { return nil }
        return GeoCoordinate(latitude: latitudeSign * north, longitude: longitudeSign * east)
    }

    /// From XMP's "DDD,MM.mmk" or "DDD,MM,SSk".
    public static func xmp(latitude: String, longitude: String) -> GeoCoordinate? {
        guard let north = xmpDegrees(latitude, positive: "N", negative: "S"),
              let east = xmpDegrees(longitude, positive: "E", negative: "W") else { return nil }
        return GeoCoordinate(latitude: north, longitude: east)
    }

    /// Either: Exif when it has both values, else XMP.
    public static func coordinate(latitude: String, latitudeRef: String, longitude: String, longitudeRef: String) -> GeoCoordinate? {
        if latitude.isEmpty || longitude.isEmpty { return nil }
        if latitude.contains("/") { return exif(latitude: latitude, latitudeRef: latitudeRef, longitude: longitude, longitudeRef: longitudeRef) }
        return xmp(latitude: latitude, longitude: longitude)
    }

    private static func sign(_ reference: String, positive: String, negative: String) -> Double? {
        // A missing reference is read as north or east, as exiftool and most readers do.
        switch reference.uppercased().trimmingSpaces {
        case "", positive: 1
        case negative: -1
        default: nil
        }
    }

    private static func rationalDegrees(_ text: String) -> Double? {
        let parts = text.split(separator: " ").map(String.init)
        guard (1...3).contains(parts.count) else { return nil }
        var degrees = 0.0
        for (index, part) in parts.enumerated() {
            let fraction = part.split(separator: "/", omittingEmptySubsequences: false)
            guard fraction.count == 2, let numerator = Double(fraction[0]), let denominator = Double(fraction[1]), denominator != 0
            else { return nil }
            degrees += numerator / denominator / [1, 60, 3600][index]
        }
        return degrees
    }

    private static func xmpDegrees(_ text: String, positive: Character, negative: Character) -> Double? {
        guard let last = text.uppercased().last, last == positive || last == negative else { return nil }
        let parts = text.dropLast().split(separator: ",").map(String.init)
        guard (2...3).contains(parts.count) else { return nil }
        var degrees = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value >= 0 else { return nil }
            degrees += value / [1, 60, 3600][index]
        }
        return last == negative ? -degrees : degrees
    }
}

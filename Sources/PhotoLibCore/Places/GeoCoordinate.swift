import RealModule

/// Where a photo was taken: degrees north and east (WGS 84), as its metadata writes them.
public struct GeoCoordinate: Sendable, Hashable, CustomStringConvertible {
    public let latitude: Double
    public let longitude: Double

    /// Nil for values no place on Earth has, and for (0, 0): what a camera without a fix writes.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude),
              latitude != 0 || longitude != 0 else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in kilometres (haversine, on a sphere of the Earth's mean radius).
    public func kilometres(to other: GeoCoordinate) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (other.latitude - latitude) * radians
        let dLongitude = (other.longitude - longitude) * radians
        let halfLatitude = Double.sin(dLatitude / 2), halfLongitude = Double.sin(dLongitude / 2)
        let a = halfLatitude * halfLatitude
            + Double.cos(latitude * radians) * Double.cos(other.latitude * radians) * halfLongitude * halfLongitude
        return 2 * Self.earthRadius * Double.asin(Double.sqrt(min(1, a)))
    }

    /// The Earth's mean radius, km.
    static let earthRadius = 6371.0088

    static func cosine(degrees: Double) -> Double { Double.cos(degrees * Double.pi / 180) }

    public var description: String { "\(latitude), \(longitude)" }
}

/// One populated place of the gazetteer (GeoNames' cities of 15,000 people or more, as Debian's
/// libgeonames ships them): what a photo taken near it is said to be taken in.
public struct GazetteerEntry: Sendable, Hashable {
    /// GeoNames' ID of the city; also the key of its names in other languages.
    public let id: Int64
    public let city: String
    /// The first-level division's name (a region, state or province), in English; may be empty.
    public let region: String
    /// The first-level division's GeoNames code, "53" for Brittany: with the country code, the key of its names.
    public let regionCode: String
    public let country: String
    /// ISO 3166 alpha-2, "FR".
    public let countryCode: String
    /// Where GeoNames puts the city: its centre.
    public let coordinate: GeoCoordinate
    public let population: UInt32

    public init(id: Int64, city: String, region: String, regionCode: String, country: String, countryCode: String, coordinate: GeoCoordinate,
                population: UInt32 = 0) {
        self.population = population
        self.id = id
        self.city = city
        self.region = region
        self.regionCode = regionCode
        self.country = country
        self.countryCode = countryCode
        self.coordinate = coordinate
    }

    /// How far the city reaches from its centre, km, grown with the square root of its people:
    /// 1.5 km for a town of 15,000 or 60,000, 2.3 for Rennes, 7.3 for Paris, 14 for Tokyo.
    public var radius: Double { Swift.max(1.5, 0.005 * Double(population).squareRoot()) }

    /// The keys GeoNames' translation catalogs give this place's three names under: the city's ID,
    /// "FR.53" for its region, "FR" for its country.
    public var translationKeys: (city: String, region: String?, country: String) {
        (String(id), regionCode.isEmpty ? nil : countryCode + "." + regionCode, countryCode)
    }
}

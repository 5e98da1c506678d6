/// A place photos were taken in, as the index keeps it: the gazetteer's names in English, and
/// every name the catalogs give its city, region and country, for the person's search.
///
/// The person's alone: apps never receive a place (the listing that carries it is the owner's).
public struct PlaceRecord: Sendable, Equatable {
    /// GeoNames' ID of the city.
    public let id: Int64
    public let city: String
    public let region: String
    public let country: String
    public let countryCode: String
    /// The city's, region's and country's names in every language the catalogs have, the English
    /// ones first, each once: what a search by place matches.
    public let names: [String]

    public init(id: Int64, city: String, region: String, country: String, countryCode: String, names: [String]) {
        self.id = id
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.names = names
    }

    /// The record for a gazetteer entry, with its names from every catalog.
    public init(_ entry: GazetteerEntry, catalogs: [GettextCatalog]) {
        var names = [entry.city, entry.region, entry.country].filter { !$0.isEmpty }
        var seen = Set(names)
        let keys = entry.translationKeys
        for catalog in catalogs {
            for key in [keys.city, keys.region, keys.country].compactMap({ $0 }) {
                if let name = catalog.translation(of: key), seen.insert(name).inserted { names.append(name) }
            }
        }
        self.init(id: entry.id, city: entry.city, region: entry.region, country: entry.country, countryCode: entry.countryCode, names: names)
    }

    /// "Rennes, Brittany Region, France": how the person's page shows it.
    public var described: String {
        [city, region == city ? "" : region, country].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

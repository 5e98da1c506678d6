import CGeonames
public import PhotoLibCore
import PhotoLibSystem

/// GeoNames' data as Debian ships it: the cities compiled into libgeonames, and their names in
/// every language in libgeonames-common's catalogs (`/usr/share/locale/LANG/LC_MESSAGES/geonames.mo`).
///
/// Read from the machine only, never from the network. GeoNames' data is CC BY 4.0 (geonames.org).
public enum GeoNamesData {
    /// Where Debian puts the catalogs.
    public static let localeDirectory = "/usr/share/locale"

    /// Every city libgeonames holds (about 24,000), for a `Gazetteer`; loads libgeonames on the first call.
    public static func cities() throws(LibraryLoadProblem) -> [GazetteerEntry] {
        var problem = [CChar](repeating: 0, count: 512)
        let count = Int(photolibd_geonames_load(&problem, problem.count))
        guard count >= 0 else {
            let reason = problem.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw LibraryLoadProblem(library: "libgeonames.so.0", reason: reason, package: "libgeonames0")
        }
        var entries: [GazetteerEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            var fields = photolibd_city()
            var city: UnsafeMutableRawPointer?
            guard photolibd_geonames_city(Int32(index), &fields, &city) == 1 else { continue }
            defer { photolibd_geonames_city_free(city) }
            func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
            guard let id = Int64(text(fields.id)), let coordinate = GeoCoordinate(latitude: fields.latitude, longitude: fields.longitude)
            else { continue }
            entries.append(GazetteerEntry(id: id, city: text(fields.name), region: text(fields.region), regionCode: text(fields.regionCode),
                                          country: text(fields.country), countryCode: text(fields.countryCode), coordinate: coordinate,
                                          population: fields.population))
        }
        return entries
    }

    /// Every language's catalog of GeoNames' names under `directory`; a catalog that cannot be read is left out and named.
    public static func catalogs(in directory: String = localeDirectory) -> (catalogs: [GettextCatalog], unreadable: [String]) {
        var catalogs: [GettextCatalog] = []
        var unreadable: [String] = []
        let languages: [DirectoryEntry]
        do {
            let root = try Directory.open(path: directory)
            defer { root.close() }
            languages = try Directory.list(root)
        } catch {
            return ([], [directory + ": " + error.description])
        }
        for language in languages.sorted(by: { $0.name.bytes.lexicographicallyPrecedes($1.name.bytes) }) {
            let path = directory + "/" + language.name.description + "/LC_MESSAGES/geonames.mo"
            do {
                guard let bytes = try PrivateFiles.read(path, limit: 16 << 20) else { continue }
                catalogs.append(try GettextCatalog(bytes))
            } catch {
                unreadable.append(path + ": \(error)")
            }
        }
        return (catalogs, unreadable)
    }
}

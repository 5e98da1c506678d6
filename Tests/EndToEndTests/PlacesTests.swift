import Foundation
import Glibc
import PhotoLibProtocol
import Testing

/// Where photos were taken (issue 39's places): the running daemon, Debian's GeoNames data
/// (libgeonames, libgeonames-common), photos geotagged by exiftool, searched with photolibctl.
@Suite("Places: where photos were taken, named offline and found by name in any language")
struct PlacesTests {
    /// Exif GPS (or XMP only) for each photo: (file, latitude, longitude, Exif or XMP).
    static let tagged: [(String, Double, Double, Bool)] = [
        ("Trip/rennes.jpg", 48.1120, -1.6800, true),
        ("Trip/quimper.jpg", 47.9960, -4.0980, false),   // XMP only, as some editors write it
        ("Trip/vitre-side.jpg", 48.1200, -1.3300, true), // 9 km from Vitré, in no town: the nearest
        ("Rhine/kehl-side.jpg", 48.5745, 7.8050, true),  // across the Rhine from Strasbourg: Germany
        ("Rhine/strasbourg-side.jpg", 48.5800, 7.7600, true),
        ("Japan/tokyo.jpg", 35.6895, 139.6917, true),
        ("Trip/eiffel.jpg", 48.8584, 2.2945, true),      // nearer Neuilly's centre than Paris's, but in Paris
        ("Sea/far-out.jpg", 46.0, -8.0, true),           // the Bay of Biscay, far from any town
    ]

    static func geotag(_ lib: TestLibrary, _ name: String, _ latitude: Double, _ longitude: Double, exif: Bool) async throws {
        let tags = exif
            ? ["-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
               "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")"]
            : ["-XMP:GPSLatitude=\(latitude)", "-XMP:GPSLongitude=\(longitude)"]
        let result = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original_in_place"] + tags + [lib.path(name)])
        guard result.status == 0 else { throw TestFailure("exiftool failed on \(name): \(result.stderr)") }
    }

    func search(_ daemon: RunningDaemon, _ text: String) async throws -> Set<String> {
        await Set(try daemon.assetInfos("--search", text).map(\.path))
    }

    @Test("each geotagged photo gets the place it was taken in; searching a city, a region or a country in English, French or Japanese finds exactly its photos; no location, no place")
    func searchByPlace() async throws {
        // A Canon CR3 taken in Kyoto on 14 July 2024, which exiv2 0.27 cannot read: its own GPS and Exif blocks are.
        let raw = try await LocationTests.media(latitude: 35.0116, longitude: 135.7681)
        defer { _ = try? runBlocking("/bin/rm", ["-rf", raw]) }
        let daemon = try await PageTests.startedWithPhotos(Self.tagged.map(\.0) + ["Trip/plain.jpg"]) { lib in
            for (name, latitude, longitude, exif) in Self.tagged { try await Self.geotag(lib, name, latitude, longitude, exif: exif) }
            try lib.copy(raw + "/photo.cr3", to: "Raw/kyoto.cr3")
        }
        try await waitUntil("every photo to be looked at for its place") {
            try await daemon.assetInfos().filter { $0.place != nil }.count == 8
        }
        let places = await Dictionary(uniqueKeysWithValues: try daemon.assetInfos().map { ($0.path, $0.place) })
        #expect(places["Trip/rennes.jpg"] == "Rennes, Brittany Region, France", "\(places)")
        #expect(places["Trip/quimper.jpg"] == "Quimper, Brittany Region, France", "XMP's GPS is read too: \(places)")
        #expect(places["Rhine/kehl-side.jpg"] == "Kehl, Baden-Württemberg, Germany", "on either side of a border: \(places)")
        #expect(places["Rhine/strasbourg-side.jpg"] == "Strasbourg, Grand Est, France", "\(places)")
        #expect(places["Trip/vitre-side.jpg"] == "Vitré, Brittany Region, France", "\(places)")
        #expect(places["Japan/tokyo.jpg"] == "Tokyo, Japan", "\(places)")
        #expect(places["Trip/eiffel.jpg"] == "Paris, Île-de-France Region, France", "\(places)")
        #expect(places["Sea/far-out.jpg"] == .some(nil), "at sea: no place; \(places)")
        #expect(places["Trip/plain.jpg"] == .some(nil), "no location: no place; \(places)")

        #expect(try await search(daemon, "Rennes") == ["Trip/rennes.jpg"])
        #expect(try await search(daemon, "Bretagne") == ["Trip/rennes.jpg", "Trip/quimper.jpg", "Trip/vitre-side.jpg"], "the region's French name")
        #expect(try await search(daemon, "brittany") == ["Trip/rennes.jpg", "Trip/quimper.jpg", "Trip/vitre-side.jpg"])
        #expect(try await search(daemon, "Deutschland") == ["Rhine/kehl-side.jpg"], "the country's German name")
        #expect(try await search(daemon, "Strasbourg") == ["Rhine/strasbourg-side.jpg"])
        #expect(try await search(daemon, "France").count == 5, "every photo in France, and not the one across the Rhine")
        #expect(places["Raw/kyoto.cr3"] == "Kyoto, Japan", "a CR3's GPS block: \(places)")
        #expect(try await search(daemon, "Kyoto") == ["Raw/kyoto.cr3"])
        #expect(try await search(daemon, "Japan") == ["Japan/tokyo.jpg", "Raw/kyoto.cr3"], "the album named Japan and the places")
        #expect(try await search(daemon, "東京") == ["Japan/tokyo.jpg"], "the city's Japanese name")
        #expect(try await search(daemon, "vitre") == ["Trip/vitre-side.jpg"], "without its accent")
        #expect(try await search(daemon, "Île-de-France") == ["Trip/eiffel.jpg"])
        #expect(try await search(daemon, "ile de france") == ["Trip/eiffel.jpg"], "hyphens or spaces, accents or none")
        #expect(try await search(daemon, "Biscay").isEmpty)
        #expect(try await search(daemon, "far-out") == ["Sea/far-out.jpg"], "names are still searched")

        // On the page, as a person types into an app's editor's search box.
        try await daemon.ok("app", "add", PageTests.viewer.app, "--uid", String(PageTests.viewer.uid))
        try await daemon.ok("authorize", PageTests.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let result = try await page.drive(["search", page.url, PageTests.viewer.app, "Bretagne", "Deutschland", "東京", "Strasbourg"])
        let shown = try #require(result["shown"] as? [String: [String]], "\(result)")
        #expect(shown["Bretagne"]?.sorted() == ["quimper.jpg", "rennes.jpg", "vitre-side.jpg"], "\(shown)")
        #expect(shown["Deutschland"] == ["kehl-side.jpg"], "\(shown)")
        #expect(shown["東京"] == ["tokyo.jpg"], "\(shown)")
        #expect(shown["Strasbourg"] == ["strasbourg-side.jpg"], "\(shown)")

        // The CR3's date is read from its Exif block too: a rule for July 2024 shares it alone (the others' dates are their files').
        try await daemon.ok("select", PageTests.viewer.app, "--taken-from", "2024-07-01", "--taken-to", "2024-07-31")
        try await waitUntil("the rule to share the CR3") { await !daemon.viewEntries(PageTests.viewer.app).isEmpty }
        let shared = await daemon.viewEntries(PageTests.viewer.app)
        #expect(shared.count == 1 && shared.first?.hasSuffix(".cr3") == true, "the CR3 alone, under the name the app knows it by: \(shared)")
    }

    @Test("a photo edited to another place is looked at again; one the owner cannot read has no place until it can be read and the daemon starts again")
    func editedAndUnreadable() async throws {
        let daemon = try await PageTests.startedWithPhotos(["Trip/moved.jpg", "Locked/secret.jpg"]) { lib in
            try await Self.geotag(lib, "Trip/moved.jpg", 48.1120, -1.6800, exif: true)
            try await Self.geotag(lib, "Locked/secret.jpg", 35.6895, 139.6917, exif: true)
            chmod(lib.path("Locked/secret.jpg"), 0o000)
        }
        try await waitUntil("the readable photo to be looked at") { try await daemon.assetInfos().contains { $0.place != nil } }
        #expect(try await daemon.assetInfos().first { $0.path == "Locked/secret.jpg" }?.place == nil, "unreadable is not nowhere, and not a place")

        // Edited: a new location, written in place (the watcher sees the close after writing).
        try await Self.geotag(daemon.library, "Trip/moved.jpg", 35.6895, 139.6917, exif: true)
        try await waitUntil("the edited photo to be looked at again") {
            try await daemon.assetInfos().first { $0.path == "Trip/moved.jpg" }?.place == "Tokyo, Japan"
        }

        chmod(daemon.library.path("Locked/secret.jpg"), 0o644)
        await daemon.stop()
        try await daemon.start()
        try await waitUntil("the photo that can be read now to be looked at again at the start") {
            try await daemon.assetInfos().first { $0.path == "Locked/secret.jpg" }?.place == "Tokyo, Japan"
        }
    }

    @Test("restarted on a library it has looked at, the daemon maps none of exiv2, libgeonames, GLib; a geotagged photo loads libgeonames to be named, its copy without location exiv2")
    func librariesLoadedWhenNeeded() async throws {
        let daemon = try await PageTests.startedWithPhotos(["Trip/plain.jpg"])
        defer { daemon.stopLater() }
        try await waitUntil("the first places pass to look at the photo") { daemon.log.contains("Places: looked at 1 files") }
        await daemon.stop()
        try await daemon.start()
        // Read whole by cat: a /proc file's size is 0, and a read sized by it stops at the first page.
        let maps = { () async throws -> String in try await run("/bin/cat", ["/proc/\(daemon.pid)/maps"]).stdout }
        // Ready is the scan and every view reconciled; the places pass, which finds nothing new, goes on after.
        try await Task.sleep(for: .milliseconds(500))
        let atRest = try await maps()
        #expect(atRest.contains("libswiftCore"), "the maps were read: \(atRest.prefix(300))")
        for library in ["libphotolibd-metadata.so", "libexiv2", "libgeonames", "libgio-2.0", "libglib-2.0", "libsystemd"] {
            #expect(!atRest.contains(library), "\(library) is mapped in a daemon that read no metadata")
        }

        let made = daemon.library.root + "/rennes.jpg"
        #expect(try await run("/usr/bin/vips", ["text", made, "Rennes", "--dpi", "300"]).status == 0)
        let tagged = try await run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-GPSLatitude=48.112", "-GPSLatitudeRef=N",
                                                   "-GPSLongitude=1.68", "-GPSLongitudeRef=W", made])
        #expect(tagged.status == 0, "\(tagged.stderr)")
        try daemon.library.copy(made, to: "Trip/rennes.jpg")
        try await waitUntil("the new photo to be named") {
            try await daemon.assetInfos().first { $0.path == "Trip/rennes.jpg" }?.place == "Rennes, Brittany Region, France"
        }
        let named = try await maps()
        #expect(named.contains("libgeonames"), "libgeonames is loaded to name its place")
        // A JPEG's GPS is read by photolibd's own parser (JpegGPS); exiv2 is loaded to take it out of an app's copy.
        #expect(!named.contains("libphotolibd-metadata.so"), "exiv2 is not loaded to read a JPEG's GPS")
        try await daemon.ok("app", "add", "org.example.NoPlaces", "--uid", "4243", "--location", "none")
        try await daemon.ok("authorize", "org.example.NoPlaces", "authorized")
        try await waitUntil("the app's view to hold both photos, the geotagged one as a copy without location") {
            await daemon.viewEntries("org.example.NoPlaces") == ["Trip/plain.jpg", "Trip/rennes.jpg"]
        }
        let copied = try await maps()
        #expect(copied.contains("libphotolibd-metadata.so") && copied.contains("libexiv2"), "exiv2 is loaded to strip the copy's location")
        let left = try await run("/usr/bin/exiftool", ["-q", "-GPSLatitude", daemon.view("org.example.NoPlaces") + "/Trip/rennes.jpg"])
        #expect(left.status == 0 && left.stdout.isEmpty, "the copy holds no GPS: \(left.stdout)")
    }
}

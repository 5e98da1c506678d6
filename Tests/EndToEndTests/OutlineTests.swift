import Foundation
import Glibc
import PhotoLibClient
import PhotoLibProtocol
import Testing

/// Albums and months (issue 39): the Albums view of the editor, each album with its cover and
/// count, opened as a person clicks it; a jump to any month; and the daemon's figures behind them.
@Suite("Albums and months: finding photos in a big library")
struct OutlineTests {
    /// Taken (here: last modified) at noon local time on these days.
    static let days: [String: (Int32, Int32, Int32)] = [
        "Trips/Brittany/beach.jpg": (2024, 7, 14), "Trips/Brittany/hill.jpg": (2024, 7, 20), "Trips/Japan/temple.jpg": (2023, 3, 1),
        "Home/cat.jpg": (2025, 1, 5), "loose.jpg": (2025, 11, 2),
    ]

    static func library() async throws -> RunningDaemon {
        try await PageTests.startedWithPhotos(Array(days.keys).sorted()) { lib in
            for (name, day) in days {
                var noon = tm()
                (noon.tm_year, noon.tm_mon, noon.tm_mday, noon.tm_hour, noon.tm_isdst) = (day.0 - 1900, day.1 - 1, day.2, 12, -1)
                let seconds = mktime(&noon)
                var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
                guard utimensat(AT_FDCWD, lib.path(name), &times, 0) == 0 else { throw TestFailure("cannot date \(name)") }
            }
        }
    }

    @Test("the Albums view shows each album with its cover and count (those below it included); clicking one shows its photos; a jump to a month opens the grid on it")
    func albumsAndMonthsOnThePage() async throws {
        let daemon = try await Self.library()
        try await daemon.ok("app", "add", PageTests.viewer.app, "--uid", String(PageTests.viewer.uid))
        try await daemon.ok("authorize", PageTests.viewer.app, "limited")
        let page = try await PageSession(daemon)
        let result = try await page.drive(["browse", page.url, PageTests.viewer.app, "Trips/Brittany", "July 2024",
                                           "--shots", ProcessInfo.processInfo.environment["PHOTOLIBD_SHOTS"] ?? daemon.library.root + "/shots"])
        let cards = try #require(result["cards"] as? [[String: Any]], "\(result)")
        #expect(cards.compactMap { $0["label"] as? String } == ["Home, 1 photo", "Trips, 3 photos", "Trips/Brittany, 2 photos",
                                                                  "Trips/Japan, 1 photo"], "\(cards)")
        #expect(cards.filter { $0["covered"] as? Bool == true }.count == 4, "every album with a photo shows its cover: \(cards)")
        #expect(result["album"] as? [String] == ["beach.jpg", "hill.jpg"], "\(result)")
        #expect(result["cardsAfterOpening"] as? Bool == false, "the album's photos take the cards' place: \(result)")
        #expect(result["chip"] as? String == "Album: Trips/Brittany ✕", "\(result)")
        #expect((result["all"] as? [String])?.count == 5, "\(result)")
        #expect(result["months"] as? [String] == ["Newest first", "November 2025 (1)", "January 2025 (1)", "July 2024 (2)", "March 2023 (1)"],
                "\(result)")
        #expect(result["jumped"] as? [String] == ["hill.jpg", "beach.jpg", "temple.jpg"], "July 2024 first, then what came before: \(result)")
        #expect(result["sections"] as? [String] == ["July 2024", "March 2023"], "\(result)")
    }

    @Test("albums with summaries and the timeline, over the socket: counts, covers (the newest below), months newest first")
    func figuresFromTheDaemon() async throws {
        let daemon = try await Self.library()
        let client = try PhotoLibConnection(socketPath: daemon.library.socket)
        let result = try client.call(.albums, AlbumsParams(summaries: true), returning: AlbumsResult.self)
        #expect(result.albums == ["Home", "Trips", "Trips/Brittany", "Trips/Japan"], "\(result.albums)")
        #expect(try client.call(.albums, NoParams(), returning: AlbumsResult.self).summaries == nil, "only when asked")
        let summaries = result.summaries ?? []
        let trips = try #require(summaries.first { $0.path == "Trips" })
        #expect(trips.assets == 3 && trips.cover?.path == "Trips/Brittany/hill.jpg", "the newest below it: \(trips)")
        #expect(summaries.map(\.assets) == [1, 3, 2, 1], "\(summaries)")
        let months = try client.call(.timeline, NoParams(), returning: TimelineResult.self).months
        #expect(months.map(\.month) == ["2025-11", "2025-01", "2024-07", "2023-03"] && months.map(\.assets) == [1, 1, 2, 1], "\(months)")
    }
}

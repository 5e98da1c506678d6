import Foundation
import Glibc
import Testing

@Suite("Logging under journald", .serialized)
struct JournalLoggingTests {
    @Test("with stderr as JOURNAL_STREAM every line carries a priority prefix, and no photo's name reaches the log at info level")
    func priorityPrefixes() async throws {
        let library = try TestLibrary()
        try library.write("Private/secret-birthday.jpg")
        let daemon = try RunningDaemon(library)
        try await daemon.start(journal: true)
        try await daemon.addApp("org.example.Viewer", "authorized")
        try library.write("Private/secret-second.jpg")
        let entry = await daemon.view("org.example.Viewer") + "/Private/secret-second.jpg"
        try await waitUntil("the new photo in the view") { FileManager.default.fileExists(atPath: entry) }
        rename(library.path("Private/secret-second.jpg"), library.path("Private/secret-renamed.jpg"))
        unlink(library.path("Private/secret-birthday.jpg"))
        try await waitUntil("the view to follow") { !FileManager.default.fileExists(atPath: entry) }
        // A request that fails is logged too (at a level the daemon chooses).
        _ = try await daemon.ctl("select", "org.example.Nobody", "x.jpg")
        await daemon.stop()

        let lines = daemon.log.split(separator: "\n")
        #expect(lines.count >= 3)
        for line in lines {
            #expect(line.range(of: #"^<[0-7]>"#, options: .regularExpression) != nil, "no priority prefix: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<5>photolibd 0.1.0 starting") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<5>Stopping.") })
        #expect(!daemon.log.contains("secret"), "a photo's name reached the log: \(daemon.log)")
        #expect(!daemon.log.contains("Private"), "an album's name reached the log: \(daemon.log)")
    }

    @Test("without JOURNAL_STREAM, or with one that names another file, lines are plain and say who wrote them")
    func plainLines() async throws {
        let library = try TestLibrary()
        let daemon = try RunningDaemon(library)
        try await daemon.start(environment: ["JOURNAL_STREAM": "1:2"])
        await daemon.stop()
        let first = daemon.log.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("photolibd["), "\(first)")
        #expect(first.contains("notice: photolibd 0.1.0 starting"))
    }
}

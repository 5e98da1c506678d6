import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibStore
import PhotoLibSystem
import Testing

/// A batch of watch events is probed first (stat, listings, capture times) and then applied in one write
/// transaction that makes no system call but SQLite's: the audit records every call made through the
/// system layer while the transaction is open, and there must be none.
@Suite("Write transactions make no system call")
struct WriteTransactionTests {
    static func path(_ text: String) -> RelativePath { TemporaryLibrary.path(text) }

    @Test("files written, changed, renamed, moved and removed; directories made, moved in, renamed, unlocked and removed",
          arguments: [false, true])
    func watchBatches(rules: Bool) throws {
        let audit = SystemCallAudit()
        let library = try TemporaryLibrary(observer: audit)
        // With a rule grant somewhere, every new or changed file is also read for when it was taken.
        if rules { library.index.captureClock = CaptureClock(access: library.index.access) }
        try library.write("a.jpg")
        try library.write("Trip/b.jpg")
        try library.write("Trip/c.jpg")
        try library.write("Old/d.jpg")
        try library.scan()
        audit.reset()

        try library.write("new.jpg")
        try library.write("a.jpg", "photo, edited")
        try library.move("Trip/b.jpg", "Trip/b2.jpg")
        try library.write("Trip/Deep/e.jpg")
        try library.remove("Trip/c.jpg")
        try library.apply([.fileWritten(Self.path("new.jpg")), .fileWritten(Self.path("a.jpg")),
                           .moved(from: Self.path("Trip/b.jpg"), to: Self.path("Trip/b2.jpg"), isDirectory: false),
                           .directoryCreated(Self.path("Trip/Deep")), .removed(Self.path("Trip/c.jpg"), isDirectory: false)])
        #expect(audit.callsInTransactions == [], "file events and a new directory")
        audit.reset()

        // A tree moved in from outside the library, with albums below it and files the name policy skips.
        let outside = library.root + "/../" + URL(fileURLWithPath: library.root).lastPathComponent + "-outside"
        try FileManager.default.createDirectory(atPath: outside + "/Imported/2024", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        for name in ["Imported/f.jpg", "Imported/2024/g.heic", "Imported/2024/notes.txt"] {
            try Data("photo".utf8).write(to: URL(fileURLWithPath: outside + "/" + name))
        }
        guard rename(outside + "/Imported", library.root + "/Imported") == 0 else { throw SystemCallError("rename", errno: errno) }
        try library.move("Old", "Renamed")
        try library.apply([.movedIn(Self.path("Imported"), isDirectory: true),
                           .moved(from: Self.path("Old"), to: Self.path("Renamed"), isDirectory: true)])
        #expect(audit.callsInTransactions == [], "a tree moved in and an album renamed")
        audit.reset()

        // An album that could not be read, then unlocked; then removed.
        chmod(library.root + "/Renamed", 0o000)
        try library.apply([.directoryAttributesChanged(Self.path("Renamed"))])
        chmod(library.root + "/Renamed", 0o755)
        try library.apply([.directoryAttributesChanged(Self.path("Renamed"))])
        try library.remove("Imported")
        try library.apply([.removed(Self.path("Imported"), isDirectory: true)])
        #expect(audit.callsInTransactions == [], "an album locked, unlocked and removed")

        let assets = try library.assets()
        #expect(Set(assets.keys) == ["a.jpg", "new.jpg", "Trip/b2.jpg", "Trip/Deep/e.jpg", "Renamed/d.jpg"], "the index followed every change")
        if rules { #expect(try library.store.read { try $0.membersWithoutCaptureTime() }.isEmpty, "the probe's capture times were stored") }
    }

    @Test("a full scan: files added, edited, moved and removed while nobody watched, an album that cannot be read; the walk comes first",
          arguments: [false, true])
    func fullScan(rules: Bool) throws {
        let audit = SystemCallAudit()
        let library = try TemporaryLibrary(observer: audit)
        if rules { library.index.captureClock = CaptureClock(access: library.index.access) }
        for name in ["a.jpg", "Trip/b.jpg", "Trip/c.jpg", "Old/d.jpg", "Locked/e.jpg"] { try library.write(name) }
        try library.scan()
        let before = try library.assets()
        audit.reset()

        try library.write("new.jpg")
        try library.write("Trip/Deep/f.jpg")
        try library.write("a.jpg", "photo, edited")
        try library.move("Trip/b.jpg", "Old/b-moved.jpg")
        try library.remove("Trip/c.jpg")
        chmod(library.root + "/Locked", 0o000)
        defer { chmod(library.root + "/Locked", 0o755) }
        try library.scan()
        #expect(audit.callsInTransactions == [], "the walk and the capture times were read before the transaction")

        let after = try library.assets()
        if getuid() != 0 {
            #expect(library.index.unreadable.keys.contains(Self.path("Locked")), "said to be unreadable, not empty")
        }
        #expect(after["Locked/e.jpg"] == before["Locked/e.jpg"], "an album that cannot be read keeps its rows")
        #expect(after["Old/b-moved.jpg"] == before["Trip/b.jpg"], "moved while nobody watched: the same asset")
        #expect(after["a.jpg"] == before["a.jpg"] && after["Trip/c.jpg"] == nil && after["new.jpg"] != nil && after["Trip/Deep/f.jpg"] != nil)
        if rules { #expect(try library.store.read { try $0.membersWithoutCaptureTime() }.isEmpty, "the scan's capture times were stored") }
    }

    @Test("the audit sees a system call made inside a write transaction")
    func auditWorks() throws {
        let audit = SystemCallAudit()
        let library = try TemporaryLibrary(observer: audit)
        try library.write("a.jpg")
        try library.store.write { _ in _ = library.index.access.lookUp(Self.path("a.jpg")) }
        #expect(audit.callsInTransactions.isEmpty == false)
    }
}

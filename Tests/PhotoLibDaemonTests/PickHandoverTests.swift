import Foundation
import Glibc
import PhotoLibCore
@testable import PhotoLibDaemon
import PhotoLibMetadata
import PhotoLibSystem
import TestSupport
import Testing

/// What a pick hands the app, on its own: files of a temporary directory opened as the engine opens
/// them; no engine, no request, no connection.
@Suite("What a pick hands the app (its owner)")
final class PickHandoverTests {
    let root: String

    init() throws {
        root = try makeTemporaryDirectory("photolibd-handover")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// A real JPEG of 16×16 black pixels, tagged by exiftool with `tags` when given.
    func photo(_ name: String, tags: [String] = []) async throws -> String {
        let path = root + "/" + name
        try await ChildProcess.runSuccessfully("/usr/bin/vips", ["black", path, "16", "16"])
        if !tags.isEmpty { try await ChildProcess.runSuccessfully("/usr/bin/exiftool", ["-q", "-overwrite_original"] + tags + [path]) }
        return path
    }

    /// `path` opened as the engine opens a chosen member: the file for reading, its directory to copy in.
    func opened(_ path: String, mustCopy: Bool, format: FormatDecision = .original) throws -> PreparedPick.OpenedMember {
        let name = String(path.split(separator: "/").last!)
        let directory = try Directory.open(path: root)
        let original = try FileCopy.openUntrusted(FileName(name)!, in: directory)
        let status = try Directory.status(of: original)
        let member = LocatedMember(rowID: 1, path: RelativePath(escaped: name)!, mediaType: .image,
                                   file: FileFacts(device: status.device, inode: status.inode, size: status.size, modificationTime: 0,
                                                   permissions: status.permissions))
        return PreparedPick.OpenedMember(member: member, original: original, size: status.size, copyDirectory: directory, mustCopy: mustCopy,
                                         format: format)
    }

    func handed(_ files: [PreparedPick.OpenedMember], captions: Bool = false, location: Bool = true) throws -> [PickHandover.Handed] {
        try PickHandover.handedNow(files, assets: files.indices.map { "asset-\($0)" }, removal: MetadataRemoval(captions: captions),
                                   locationAllowed: location, fallback: root)
    }

    func bytes(_ fd: FileDescriptor) throws -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = pread(fd.rawValue, &buffer, buffer.count, offset)
            guard count > 0 else { break }
            out += buffer[0..<count]
            offset += off_t(count)
        }
        return out
    }

    @Test("a file that loses nothing goes as it is to an app of its own uid; one running as the owner gets a sealed copy of the same bytes")
    func asItIsOrCopied() async throws {
        let path = try await photo("plain.jpg")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var status = stat()
        #expect(stat(path, &status) == 0)
        let inode = UInt64(status.st_ino)

        let shared = try handed([try opened(path, mustCopy: false)])
        defer { for file in shared { file.fd.close() } }
        #expect(shared.map(\.copied) == [false])
        #expect(try Directory.status(of: shared[0].fd).inode == inode, "the original itself")

        let copied = try handed([try opened(path, mustCopy: true)])
        defer { for file in copied { file.fd.close() } }
        #expect(copied.map(\.copied) == [true])
        #expect(try Directory.status(of: copied[0].fd).inode != inode)
        #expect(try bytes(copied[0].fd) == original && copied[0].size == Int64(original.count))
        var byte: UInt8 = 0
        #expect(pwrite(copied[0].fd.rawValue, &byte, 1, 0) == -1, "sealed: the app cannot write into it")
    }

    @Test("a photo with a serial number and a caption: the app's copy has neither (a caption stays when shared); the original keeps both")
    func stripped() async throws {
        let path = try await photo("tagged.jpg", tags: ["-SerialNumber=CAM-0042", "-ImageDescription=Alice at the beach"])
        for captions in [false, true] {
            let files = try handed([try opened(path, mustCopy: false)], captions: captions)
            defer { for file in files { file.fd.close() } }
            #expect(files.map(\.copied) == [true], "it held what the app may not have: a copy")
            #expect(try AppMetadataStripper.plan(files[0].fd, removal: MetadataRemoval(captions: captions)) == nil, "nothing left to take out")
            let text = String(decoding: try bytes(files[0].fd), as: UTF8.self)
            #expect(!text.contains("CAM-0042"))
            #expect(text.contains("Alice at the beach") == !captions)
        }
        let kept = String(decoding: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), as: UTF8.self)
        #expect(kept.contains("CAM-0042") && kept.contains("Alice at the beach"))
    }

    @Test("all or nothing: a file that cannot be made a JPEG fails the pick naming its asset, and nothing is handed")
    func allOrNothing() async throws {
        let good = try await photo("good.jpg")
        let broken = root + "/broken.heic"
        try Data("not a HEIC".utf8).write(to: URL(fileURLWithPath: broken))
        do {
            let files = try handed([try opened(good, mustCopy: true), try opened(broken, mustCopy: false, format: .jpeg(from: "image/heic"))])
            for file in files { file.fd.close() }
            Issue.record("a pick with a file that cannot be converted was handed over")
        } catch PhotoLibError.pick(.cannotConvert(let asset, let path, _)) {
            #expect(asset == "asset-1" && path == "broken.heic")
        }
    }

    /// The member indexed for `name` in the test's directory, with its inode now.
    func member(_ name: String) throws -> LocatedMember {
        var facts = stat()
        #expect(stat(root + "/" + name, &facts) == 0)
        return LocatedMember(rowID: 1, path: RelativePath(escaped: name)!, mediaType: .image,
                             file: FileFacts(device: UInt64(facts.st_dev), inode: UInt64(facts.st_ino), size: Int64(facts.st_size),
                                             modificationTime: 0, permissions: UInt32(facts.st_mode)))
    }

    /// Why opening `member` failed, in a few words; "opened" when it did not.
    func opening(_ member: LocatedMember, _ access: LibraryAccess) -> String {
        do {
            let fd = try PickHandover.openOriginal(member, asset: AssetID("0123456789abcdef")!, in: access, ownerUID: getuid())
            fd.close()
            return "opened"
        } catch .pick(.cannotOpen(let asset, let path, let errno)) {
            return "cannot open \(asset) \(path) \(errno.map(String.init) ?? "-")"
        } catch .pick(.refused(_, let path, let refusal)) {
            return "refused \(path) \(refusal)"
        } catch {
            return "\(error)"
        }
    }

    @Test("a chosen file is opened only if it is still the indexed one and may be shared: not another file in its place, a symlink, a file gone, or one others may write")
    func originals() throws {
        let access = LibraryAccess(root: try Directory.open(path: root))
        try Data("photo".utf8).write(to: URL(fileURLWithPath: root + "/a.jpg"))
        let a = try member("a.jpg")
        #expect(opening(a, access) == "opened")
        #expect(chmod(root + "/a.jpg", 0o646) == 0)
        access.invalidate()
        #expect(opening(a, access).hasPrefix("refused a.jpg"), "writable by others: never shared, even once")
        #expect(chmod(root + "/a.jpg", 0o644) == 0)
        // Another file under the name (kept, so its inode is not reused).
        #expect(rename(root + "/a.jpg", root + "/kept.jpg") == 0)
        try Data("another".utf8).write(to: URL(fileURLWithPath: root + "/a.jpg"))
        access.invalidate()
        #expect(opening(a, access) == "cannot open 0123456789abcdef a.jpg -")
        #expect(unlink(root + "/a.jpg") == 0 && symlink(root + "/kept.jpg", root + "/a.jpg") == 0)
        access.invalidate()
        #expect(opening(a, access) == "cannot open 0123456789abcdef a.jpg \(ELOOP)", "a symlink is not followed")
        #expect(unlink(root + "/a.jpg") == 0)
        access.invalidate()
        #expect(opening(a, access) == "cannot open 0123456789abcdef a.jpg \(ENOENT)")
    }

    /// The descriptors this process holds now of this test's directory and what is in it, by what they
    /// name (other tests of the process open and close their own meanwhile).
    func openDescriptors() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)).flatMap { $0.hasPrefix(root) ? $0 : nil }
        }.sorted()
    }

    @Test("a pick's files open in order: an original as it is, a derivative in place of one the app may not see the location of; all or nothing, nothing left open")
    func openDeliveries() throws {
        let derivativesPath = root + "/derivatives"
        #expect(mkdir(derivativesPath, 0o700) == 0)
        try Data("plain".utf8).write(to: URL(fileURLWithPath: root + "/plain.jpg"))
        try Data("geotagged original".utf8).write(to: URL(fileURLWithPath: root + "/trip.jpg"))
        try Data("no place".utf8).write(to: URL(fileURLWithPath: derivativesPath + "/m7"))
        var facts = stat()
        #expect(stat(derivativesPath + "/m7", &facts) == 0)
        let derivativeInode = UInt64(facts.st_ino)
        let plain = try member("plain.jpg")
        var trip = try member("trip.jpg")
        trip.rowID = 7
        func delivery(_ member: LocatedMember, _ id: String) -> PickPolicy.Delivery {
            PickPolicy.Delivery(asset: LocatedAsset(rowID: member.rowID, id: AssetID(id)!, mediaType: .image, members: [member], ancestry: []),
                                members: [member])
        }
        let deliveries = [delivery(plain, "00000000000000a1"), delivery(trip, "00000000000000a2")]
        let access = LibraryAccess(root: try Directory.open(path: root))
        let derivatives = try Directory.open(path: derivativesPath)
        defer { derivatives.close() }
        let before = try openDescriptors()

        let opened = try PickHandover.open(deliveries, copies: true, in: access, ownerUID: getuid(), derivatives: derivatives) { member in
            member.rowID == 7 ? .derivative(inode: derivativeInode, size: 8) : .original
        }
        #expect(opened.map(\.member.path.escaped) == ["plain.jpg", "trip.jpg"])
        #expect(try opened.map { String(decoding: try bytes($0.original), as: UTF8.self) } == ["plain", "no place"])
        #expect(opened.map(\.size) == [5, 8] && opened.allSatisfy(\.mustCopy))
        for file in opened {
            file.original.close()
            file.copyDirectory.close()
        }

        func failure(_ source: @escaping (LocatedMember) -> EntrySource) -> String {
            do {
                let files = try PickHandover.open(deliveries, copies: false, in: access, ownerUID: getuid(), derivatives: derivatives, source: source)
                for file in files {
                    file.original.close()
                    file.copyDirectory.close()
                }
                return "opened"
            } catch PhotoLibError.pick(.locationUnknown(let asset, let path, let reason)) {
                return "unknown \(asset) \(path) \(reason)"
            } catch PhotoLibError.pick(.cannotOpen(let asset, let path, let errno)) {
                return "cannot open \(asset) \(path) \(errno.map(String.init) ?? "-")"
            } catch {
                return "\(error)"
            }
        }
        #expect(failure { $0.rowID == 7 ? .withheld(reason: "unreadable") : .original } == "unknown 00000000000000a2 trip.jpg unreadable",
                "a location not known is never handed over; the first file, opened, is closed again")
        #expect(failure { $0.rowID == 7 ? .derivative(inode: derivativeInode + 1, size: 8) : .original } == "cannot open 00000000000000a2 trip.jpg -",
                "a derivative replaced since it was checked is not handed")
        #expect(unlink(derivativesPath + "/m7") == 0)
        #expect(failure { $0.rowID == 7 ? .derivative(inode: derivativeInode, size: 8) : .original } == "cannot open 00000000000000a2 trip.jpg \(ENOENT)")
        access.invalidate()
        #expect(try openDescriptors() == before, "nothing is left open")
    }
}

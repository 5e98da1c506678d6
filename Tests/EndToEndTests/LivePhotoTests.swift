import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import Testing

/// Live Photos (SPEC §2): a photo and its video are one asset, with the daemon
/// run by the library's owner and driven through photolibctl and the socket.
@Suite("Live Photos, end to end", .serialized)
struct LivePhotoTests {
    let viewer = "org.example.Viewer"
    let picker = "org.example.Picker"

    func live(_ daemon: RunningDaemon) async throws -> [AssetInfo] {
        try await daemon.assetInfos("--type", "live")
    }

    @Test("a photo and its video are one live asset: one ID, one selection, an entry per file, and a video added later joins its photo")
    func pairsAreOneAsset() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("Trip/IMG_1.HEIC", contents: "still")
            try lib.write("Trip/IMG_1.MOV", contents: "motion")
            try lib.write("Trip/IMG_2.heic", contents: "still two")
            try lib.write("Trip/IMG_3.JPG")
            try lib.write("Trip/img_4.jpg")
            try lib.write("Trip/IMG_4.MOV")  // another stem: case matters in stems
        }
        let lib = daemon.library
        let pairs = try await live(daemon)
        #expect(pairs.map(\.path) == ["Trip/IMG_1.HEIC"])
        #expect(pairs.first?.members?.map(\.path) == ["Trip/IMG_1.HEIC", "Trip/IMG_1.MOV"])
        #expect(try await daemon.status().assets == 5)
        #expect(try await daemon.ok("assets").contains("Trip/IMG_1.HEIC + IMG_1.MOV"))
        let liveID = try #require(pairs.first?.id)

        // Selecting either file selects the asset: both files are in the view, under the asset's ID.
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, "Trip/IMG_1.MOV")
        let pickersID = try #require(try await daemon.appIDs(picker)["Trip/IMG_1.HEIC"])  // the app's own ID for the asset
        #expect(await daemon.viewEntries(picker) == ["\(pickersID).heic", "\(pickersID).mov"])
        let listed = try PhotoLibConnection(socketPath: lib.socket).call(.list, OptionalAppParams(app: picker), returning: ListResult.self)
        #expect(listed.assets.map(\.id) == [pickersID] && listed.assets.first?.mediaType == "live")
        #expect(listed.assets.first?.members?.map(\.entry) == ["\(pickersID).heic", "\(pickersID).mov"])

        // An authorized app hears one asset change when a video arrives next to its photo.
        try await daemon.addApp(viewer, "authorized", uid: 4242)
        let events = try EventReader(daemon, app: viewer)
        let photoID = try #require(try await daemon.assets()["Trip/IMG_2.heic"])
        let viewersID = try #require(try await daemon.appIDs(viewer)["Trip/IMG_2.heic"])
        try lib.write("Trip/IMG_2.MOV", contents: "motion two")
        let change = try await events.nextChange()
        #expect(change.inserted.isEmpty && change.removed.isEmpty, "\(change.details)")
        #expect(change.changed.map(\.id) == [viewersID] && change.changed.first?.mediaType == "live")
        #expect(change.changed.first?.members?.map(\.entry) == ["Trip/IMG_2.heic", "Trip/IMG_2.MOV"])
        #expect(await Set(try live(daemon).map(\.id)) == [liveID, photoID])
        #expect(await daemon.viewEntries(viewer).isSuperset(of: ["Trip/IMG_2.heic", "Trip/IMG_2.MOV"]))

        // An atomic save of the video (write aside, rename over) is one change of the one asset.
        try lib.write("Trip/.IMG_2.MOV.tmp", contents: "motion two, trimmed")
        #expect(rename(lib.path("Trip/.IMG_2.MOV.tmp"), lib.path("Trip/IMG_2.MOV")) == 0)
        let saved = try await events.nextChange()
        #expect(saved.changed.map(\.id) == [viewersID] && saved.inserted.isEmpty && saved.removed.isEmpty, "\(saved.details)")
        #expect(saved.changed.first?.members?.last?.size == Int64("motion two, trimmed".utf8.count))
    }

    @Test("renaming or moving either file keeps the ID and the selection; the video gone leaves the photo with the same ID")
    func identitySurvivesRenamesAndRemoval() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("Trip/IMG_1.HEIC", contents: "still")
            try lib.write("Trip/IMG_1.MOV", contents: "motion")
            try lib.makeDirectory(lib.path("Best"))
        }
        let lib = daemon.library
        let id = try #require(try await live(daemon).first?.id)
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, id)
        let shown = try #require(try await daemon.appIDs(picker)["Trip/IMG_1.HEIC"])  // the app's own ID, as stable as the library's

        // A photo manager moves the pair, one file after the other.
        #expect(rename(lib.path("Trip/IMG_1.HEIC"), lib.path("Best/IMG_1.HEIC")) == 0)
        #expect(rename(lib.path("Trip/IMG_1.MOV"), lib.path("Best/IMG_1.MOV")) == 0)
        try await waitUntil("the pair to be one asset again in Best") {
            try await live(daemon).map(\.path) == ["Best/IMG_1.HEIC"]
        }
        #expect(try await live(daemon).first?.id == id)

        // Renamed, video first this time.
        #expect(rename(lib.path("Best/IMG_1.MOV"), lib.path("Best/Sunset.mov")) == 0)
        #expect(rename(lib.path("Best/IMG_1.HEIC"), lib.path("Best/Sunset.heic")) == 0)
        try await waitUntil("the renamed pair to be one asset") { try await live(daemon).map(\.path) == ["Best/Sunset.heic"] }
        #expect(try await live(daemon).first?.id == id)
        #expect(try await daemon.status().assets == 1)
        try await waitUntil("the view to hold both files") { await daemon.viewEntries(picker) == ["\(shown).heic", "\(shown).mov"] }

        // The video deleted: an image asset, same ID, still selected, its video gone from the view.
        #expect(unlink(lib.path("Best/Sunset.mov")) == 0)
        try await waitUntil("the photo to stand alone") { try await live(daemon).isEmpty }
        let photo = try #require(try await daemon.assetInfos().first)
        #expect(photo.id == id && photo.mediaType == "image" && photo.members == nil)
        try await waitUntil("the view to hold the photo only") { await daemon.viewEntries(picker) == ["\(shown).heic"] }

        // The video back: it joins its photo again, and the app sees it.
        try lib.write("Best/Sunset.MOV", contents: "motion")
        try await waitUntil("the pair again") { try await live(daemon).first?.id == id }
        try await waitUntil("the view to hold both again") { await daemon.viewEntries(picker) == ["\(shown).heic", "\(shown).MOV".lowercased()] }
    }

    @Test("a photo added after its video joins the video's asset (ID and selection); pairs made while the daemon was down are found at start")
    func photoAfterVideoAndOffline() async throws {
        let daemon = try await RunningDaemon.startedByOwner { lib in
            try lib.write("clips/IMG_9.MOV", contents: "motion")
        }
        let lib = daemon.library
        let videoID = try #require(try await daemon.assets()["clips/IMG_9.MOV"])
        try await daemon.addApp(picker, "limited", uid: 4243)
        try await daemon.ok("select", picker, videoID)
        let shown = try #require(try await daemon.appIDs(picker)["clips/IMG_9.MOV"])
        try lib.write("clips/IMG_9.HEIC", contents: "still")
        try await waitUntil("the photo to join its video") { try await live(daemon).map(\.id) == [videoID] }
        try await waitUntil("the view to hold both") { await daemon.viewEntries(picker) == ["\(shown).heic", "\(shown).mov"] }

        await daemon.stop()
        try lib.write("clips/IMG_10.JPG")
        try lib.write("clips/IMG_10.MP4")
        #expect(unlink(lib.path("clips/IMG_9.HEIC")) == 0)
        try await daemon.start()
        #expect(await Set(try live(daemon).map(\.path)) == ["clips/IMG_10.JPG"])
        let video = try #require(try await daemon.assetInfos().first { $0.path == "clips/IMG_9.MOV" })
        #expect(video.id == videoID && video.mediaType == "video")
        #expect(await daemon.viewEntries(picker) == ["\(shown).mov"])
    }
}

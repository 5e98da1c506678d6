import Foundation
import Testing
@testable import PhotoLibCore

@Suite("Which file dialogs become a photo pick (the portal backend)")
struct FileChooserRouteTests {
    func call(_ filters: [FileFilter], current: FileFilter? = nil, multiple: Bool = false, directory: Bool = false) -> FileChooserCall {
        FileChooserCall(handle: "/org/freedesktop/portal/desktop/request/1_2/t", app: "org.example.Photos", filters: filters, current: current,
                        multiple: multiple, directory: directory)
    }

    let images = FileFilter(name: "Images", patterns: [FilePattern(.mimeType, "image/jpeg"), FilePattern(.glob, "*.png")])
    let everything = FileFilter(name: "All files", patterns: [FilePattern(.glob, "*")])

    func options(_ types: Set<MediaType>, limit: Int, accepts: [String]) -> PickOptions {
        var options = PickOptions(types: types, limit: limit)
        options.accepts = accepts
        return options
    }

    @Test("an image filter shown first is a pick of images, one or as many as the person likes, of the types the filter names")
    func imagesArePicked() {
        #expect(FileChooserRoute.decide(call([images, everything]), registered: false) == .pick(options([.image], limit: 1, accepts: ["image/jpeg", "image/png"])))
        #expect(FileChooserRoute.decide(call([images], multiple: true), registered: false) == .pick(options([.image], limit: 0, accepts: ["image/jpeg", "image/png"])))
        let both = FileFilter(name: "Media", patterns: [FilePattern(.mimeType, "image/*"), FilePattern(.mimeType, "video/mp4")])
        #expect(FileChooserRoute.decide(call([both]), registered: false) == .pick(options([.image, .video], limit: 1, accepts: ["image/*", "video/mp4"])))
        let jxl = FileFilter(name: "Images", patterns: [FilePattern(.glob, "*.[jJ][pP][gG]"), FilePattern(.glob, "*.jxl")])
        #expect(FileChooserRoute.decide(call([jxl]), registered: false) == .pick(options([.image], limit: 1, accepts: [])),
                "a type photolibd cannot name (*.jxl) leaves the app's reading unknown: it gets what is chosen, as it is")
    }

    @Test("which picked photo reaches an app as it is, which as a JPEG, which not at all")
    func formats() {
        #expect(FormatDecision.decide(name: "IMG_1.HEIC", accepts: []) == .original, "an app that names no type takes any")
        #expect(FormatDecision.decide(name: "IMG_1.HEIC", accepts: ["image/jpeg", "image/png"]) == .jpeg(from: "image/heic"))
        #expect(FormatDecision.decide(name: "IMG_1.HEIC", accepts: ["image/heif"]) == .original, "HEIC is HEIF")
        #expect(FormatDecision.decide(name: "a.avif", accepts: ["image/jpeg"]) == .jpeg(from: "image/avif"))
        #expect(FormatDecision.decide(name: "a.jpg", accepts: ["image/*"]) == .original)
        #expect(FormatDecision.decide(name: "a.JPEG", accepts: ["image/jpeg"]) == .original)
        #expect(FormatDecision.decide(name: "a.dng", accepts: ["image/jpeg"]) == .jpeg(from: "image/x-adobe-dng"))
        #expect(FileFormat.jpegMaking(from: "image/x-adobe-dng") == .embeddedPreview && FileFormat.jpegMaking(from: "image/heic") == .decoding,
                "a raw file as the JPEG it carries: no raw loader here")
        #expect(FormatDecision.decide(name: "a.CR3", accepts: ["image/jpeg"]) == .unreadable(mime: "image/x-canon-cr3"), "exiv2 0.27 reads no CR3 as built")
        #expect(FormatDecision.decide(name: "a.nef", accepts: ["image/png"]) == .unreadable(mime: "image/x-nikon-nef"))
        #expect(FormatDecision.decide(name: "a.heic", accepts: ["image/png"]) == .unreadable(mime: "image/heic"), "it takes no JPEG either")
        #expect(FormatDecision.decide(name: "IMG_1.MOV", accepts: ["image/jpeg"]) == .original, "an app asking for photos says nothing of a Live Photo's video")
        #expect(FormatDecision.jpegName("IMG_1.HEIC") == "IMG_1.jpg" && FormatDecision.jpegName("noext") == "noext.jpg")
    }

    @Test("a raw file is handed as its largest JPEG preview, unless that is a thumbnail")
    func rawPreviews() {
        let thumbnail = EmbeddedPreview(width: 160, height: 120, bytes: 9_000, isJPEG: true)
        let half = EmbeddedPreview(width: 1616, height: 1080, bytes: 400_000, isJPEG: true)
        let full = EmbeddedPreview(width: 6000, height: 4000, bytes: 3_000_000, isJPEG: true)
        let tiff = EmbeddedPreview(width: 8000, height: 6000, bytes: 9_000_000, isJPEG: false)
        #expect(EmbeddedPreview.choose([thumbnail, half, full, tiff]) == .preview(index: 2), "the largest JPEG, not a larger TIFF")
        #expect(EmbeddedPreview.choose([full, thumbnail]) == .preview(index: 0), "in any order")
        #expect(EmbeddedPreview.choose([thumbnail]) == .tooSmall(width: 160, height: 120))
        #expect(EmbeddedPreview.choose([tiff]) == .none && EmbeddedPreview.choose([]) == .none)
        let unsized = EmbeddedPreview(width: 0, height: 0, bytes: 2_000_000, isJPEG: true)
        #expect(EmbeddedPreview.choose([unsized, EmbeddedPreview(width: 0, height: 0, bytes: 5_000, isJPEG: true)]) == .preview(index: 0),
                "without sizes, the longest")
        #expect(EmbeddedPreview.choose([EmbeddedPreview(width: 640, height: 480, bytes: 50_000, isJPEG: true)]) == .preview(index: 0))

        // A thumbnail is made from the smallest JPEG that is big enough, else the largest there is.
        #expect(EmbeddedPreview.forThumbnail([full, half, thumbnail, tiff], side: 256) == 1)
        #expect(EmbeddedPreview.forThumbnail([thumbnail], side: 256) == 0)
        #expect(EmbeddedPreview.forThumbnail([tiff], side: 256) == nil)
    }

    @Test("accepted types are checked when asked, and kept with the request")
    func acceptedTypes() throws {
        let parsed = try PickOptions.parse(types: ["image"], limit: 2, ordered: true, accepts: ["Image/JPEG", "image/*"])
        #expect(parsed.accepts == ["image/jpeg", "image/*"])
        #expect(PickOptions(storageText: parsed.storageText) == parsed)
        #expect(PickOptions(storageText: PickOptions(types: [.image], limit: 1).storageText)?.accepts == [], "older rows have none")
        for bad in ["jpeg", "image/", "*/jpeg", "image/jp eg", "image/jpeg;q=1"] {
            #expect(throws: PhotoLibError.self, "\(bad)") { try PickOptions.parse(types: nil, limit: nil, ordered: nil, accepts: [bad]) }
        }
    }

    @Test("GTK's case-insensitive suffixes and video globs are understood")
    func gtkGlobs() {
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "*.[jJ][pP][gG]")) == .image)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "*.MOV")) == .video)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "*.heic")) == .image)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "*.pdf")) == nil)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "*")) == nil)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.glob, "photo.jpg")) == nil, "a glob of one name is not a type")
        #expect(FileChooserRoute.mediaType(of: FilePattern(.mimeType, "application/pdf")) == nil)
        #expect(FileChooserRoute.mediaType(of: FilePattern(.unknown(7), "image/*")) == nil)
    }

    @Test("documents, folders, a mixed filter, an 'all files' first filter go to the desktop's own dialog")
    func othersAreForwarded() {
        let pdf = FileFilter(name: "PDF", patterns: [FilePattern(.glob, "*.pdf")])
        let mixed = FileFilter(name: "Images and PDF", patterns: [FilePattern(.mimeType, "image/*"), FilePattern(.glob, "*.pdf")])
        for forwarded in [call([pdf]), call([mixed]), call([everything, images]), call([images], directory: true),
                          call([FileFilter(name: "Empty", patterns: [])])] {
            guard case .forward = FileChooserRoute.decide(forwarded, registered: true) else {
                Issue.record("\(forwarded) should be forwarded")
                continue
            }
        }
    }

    @Test("the filter the app names as current decides, not the first")
    func currentFilterDecides() {
        let pdf = FileFilter(name: "PDF", patterns: [FilePattern(.glob, "*.pdf")])
        #expect(FileChooserRoute.decide(call([pdf, images], current: images), registered: false) == .pick(options([.image], limit: 1, accepts: ["image/jpeg", "image/png"])))
        guard case .forward = FileChooserRoute.decide(call([images, pdf], current: pdf), registered: false) else {
            Issue.record("a PDF current filter is a document dialog")
            return
        }
    }

    @Test("no filter: a pick for an app the person registered, the desktop's dialog for any other")
    func noFilter() {
        #expect(FileChooserRoute.decide(call([]), registered: true) == .pick(PickOptions(types: [.image, .video], limit: 1)))
        guard case .forward(let reason) = FileChooserRoute.decide(call([]), registered: false) else {
            Issue.record("an unknown app without filters is forwarded")
            return
        }
        #expect(reason.contains("not registered"))
    }

    @Test("the arguments as the bus side writes them are read, unknown pattern kinds included")
    func decodesTheBusForm() throws {
        let json = #"{"handle":"/h","app":"org.example.Photos","parent":"x11:1","title":"Open","filters":[{"name":"Images","patterns":[[1,"image/jpeg"],[0,"*.png"],[9,"?"]]}],"multiple":true,"directory":false,"current":null}"#
        let decoded = try JSONDecoder().decode(FileChooserCall.self, from: Data(json.utf8))
        #expect(decoded.filters.first?.patterns == [FilePattern(.mimeType, "image/jpeg"), FilePattern(.glob, "*.png"), FilePattern(.unknown(9), "?")])
        #expect(decoded.multiple && !decoded.directory && decoded.current == nil && decoded.parent == "x11:1")
    }
}

@Suite("The portal's answers, apps and expiring copies")
struct PortalPartsTests {
    @Test("each ending has the response the portal documents: 0 chosen, 1 cancelled, 2 anything else")
    func responses() {
        #expect(PortalEnding.picked(files: 2).response == 0)
        #expect(PortalEnding.cancelled.response == 1)
        for other in [PortalEnding.pageClosed, .timedOut(seconds: 600), .closedByApp, .daemonNotRunning(socket: "/s"), .failed("x")] {
            #expect(other.response == 2, "\(other)")
        }
        #expect(PortalEnding.daemonNotRunning(socket: "/run/user/1000/photolibd.sock").described.contains("systemctl --user start"))
    }

    @Test("a Flatpak ID names its app; an unsandboxed caller is the shared host app; nonsense names none")
    func apps() {
        #expect(PortalApp.app(forPortalID: "org.gnome.Loupe") == AppID("org.gnome.Loupe"))
        #expect(PortalApp.app(forPortalID: "") == PortalApp.hostApp)
        #expect(PortalApp.app(forPortalID: "not an id") == nil)
    }

    @Test("the shelf reads its schedule from directory names, ignores others, and hands out what is due in order")
    func shelf() {
        var shelf = PickShelf(names: ["1700000300-ab12", "1700000100-ff", "lost+found", "12-xyz", "0-aa", "1700000200-cd"])
        #expect(shelf.entries.map(\.name) == ["1700000100-ff", "1700000200-cd", "1700000300-ab12"])
        #expect(shelf.nextDue == 1_700_000_100)
        #expect(shelf.takeDue(at: 1_700_000_200).map(\.name) == ["1700000100-ff", "1700000200-cd"])
        shelf.add(PickShelf.Entry(name: PickShelf.name(expiresAt: 1_700_000_250, token: "0e"), expiresAt: 1_700_000_250))
        #expect(shelf.nextDue == 1_700_000_250)
        let rest = shelf.takeDue(at: 1_800_000_000)
        #expect(rest.count == 2)
        #expect(shelf.nextDue == nil)
    }

    @Test("a cancel may say the page closed; no other answer has a reason, and an unknown one is refused")
    func cancelReasons() throws {
        #expect(try CancelReason.parse(nil, answer: .cancel) == nil)
        #expect(try CancelReason.parse("pageClosed", answer: .cancel) == .pageClosed)
        #expect(throws: PhotoLibError.self) { try CancelReason.parse("pageClosed", answer: .authorized) }
        #expect(throws: PhotoLibError.self) { try CancelReason.parse("bored", answer: .cancel) }
    }

    @Test("copies keep their names, told apart within a pick; hidden or impossible names get a plain one; URIs are percent-encoded")
    func copyNamesAndURIs() {
        var used = Set<String>()
        #expect(PickShelf.copyName("IMG_0001.JPG", position: 0, used: &used) == "IMG_0001.JPG")
        #expect(PickShelf.copyName("IMG_0001.JPG", position: 1, used: &used) == "IMG_0001 (2).JPG")
        #expect(PickShelf.copyName("IMG_0001.JPG", position: 2, used: &used) == "IMG_0001 (3).JPG")
        #expect(PickShelf.copyName(".hidden.jpg", position: 3, used: &used) == "picked-4")
        #expect(PickShelf.copyName("a/b.jpg", position: 4, used: &used) == "picked-5")
        #expect(PickShelf.fileURI(of: "/home/ann/.local/state/photolibd/portal-picks/17-ab/Été à Nice #1.jpg")
                == "file:///home/ann/.local/state/photolibd/portal-picks/17-ab/%C3%89t%C3%A9%20%C3%A0%20Nice%20%231.jpg")
    }

    @Test("doctor says whether file dialogs come to photolibd: by portals.conf, by the portal's desktop names, off, or set but not installed")
    func fileDialogsCheck() {
        let conf = """
            # comment
            [preferred]
            default=gnome;gtk;
            org.freedesktop.impl.portal.FileChooser = photolibd ; gtk
            """
        #expect(PortalChoice.fileChooserBackends(inPortalsConf: conf) == ["photolibd", "gtk"])
        #expect(PortalChoice.fileChooserBackends(inPortalsConf: "[preferred]\ndefault=gtk\n") == nil)
        #expect(PortalChoice.fileChooserBackends(inPortalsConf: "[other]\norg.freedesktop.impl.portal.FileChooser=photolibd\n") == nil)
        let installed = ["/usr/share/xdg-desktop-portal/portals/photolibd.portal"]
        let byConfig = PortalChoice(installed: installed, configured: ("/home/a/.config/xdg-desktop-portal/portals.conf", ["photolibd", "gtk"])).check
        #expect(byConfig.outcome == .pass && byConfig.detail.hasPrefix("On: /home/a/.config"), "\(byConfig)")
        let byDesktop = PortalChoice(installed: installed, portalDesktops: "photolibd:GNOME").check
        #expect(byDesktop.outcome == .pass && byDesktop.detail.contains("XDG_CURRENT_DESKTOP=photolibd:GNOME"), "\(byDesktop)")
        let configWins = PortalChoice(installed: installed, configured: ("/etc/xdg/xdg-desktop-portal/portals.conf", ["gtk"]),
                                      portalDesktops: "photolibd:GNOME").check
        #expect(configWins.detail.contains("installed but off") && configWins.detail.contains("chooses gtk"), "\(configWins)")
        let local = PortalChoice(installed: ["/usr/local/share/xdg-desktop-portal/portals/photolibd.portal"], portalDesktops: "photolibd:GNOME").check
        #expect(local.outcome == .warn && local.advice?.contains("ln -s") == true, "1.16 reads /usr/share alone: \(local)")
        let off = PortalChoice(installed: installed, portalDesktops: "GNOME").check
        #expect(off.outcome == .pass && off.detail.contains("installed but off"), "\(off)")
        let missing = PortalChoice(installed: [], configured: ("/home/a/.config/xdg-desktop-portal/portals.conf", ["photolibd"])).check
        #expect(missing.outcome == .warn && missing.advice != nil, "\(missing)")
        #expect(PortalChoice().check.outcome == .pass)
        var unknown = PortalChoice(installed: installed)
        unknown.processesUnreadable = "opendir /proc: Permission denied"
        #expect(unknown.check.outcome == .warn && unknown.check.detail.contains("cannot be told"), "an unreadable /proc is not 'off': \(unknown.check)")
    }
}

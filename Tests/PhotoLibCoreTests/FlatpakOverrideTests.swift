import PhotoLibCore
import Testing

@Suite("Flatpak permissions and the Pictures override")
struct FlatpakOverrideTests {
    let home = "/home/ann"

    func reach(_ layers: [[String]]) -> PicturesReach {
        FlatpakFilesystems(layers: layers).reach(pictures: "Pictures", home: home)
    }

    @Test("what reaches ~/Pictures: the folder, inside it, or what holds it; nothing else")
    func reaching() {
        #expect(reach([["xdg-pictures:ro"]]) == PicturesReach(through: ["xdg-pictures"], broad: []))
        #expect(reach([["xdg-pictures/Trips/", "~/Pictures"]]).through == ["xdg-pictures/Trips", "~/Pictures"])
        #expect(reach([["home"]]) == PicturesReach(through: ["home"], broad: ["home"]))
        #expect(reach([["host:ro", "/home", "/home/ann/Pictures/x"]]).broad == ["/home", "host"])
        #expect(reach([["/home/ann/Pictures/x"]]).broad.isEmpty)
        #expect(!reach([["xdg-download", "xdg-run/pipewire-0", "~/Picturesque", "/home/annie", "host-os", "xdg-pictures-not"]]).reaches)
        #expect(reach([["~"]]).broad == ["~"])
    }

    @Test("later layers negate earlier grants and grant them back, as Flatpak merges them")
    func layers() {
        #expect(!reach([["xdg-pictures"], ["!xdg-pictures"]]).reaches)
        #expect(reach([["xdg-pictures"], ["!xdg-pictures"], ["xdg-pictures:ro"]]).through == ["xdg-pictures"])
        #expect(!reach([["home:ro"], [], ["!home"]]).reaches)
    }

    @Test("a sentence per kind of reach")
    func sentences() {
        #expect(reach([["xdg-pictures"]]).sentence == "Sees all your photos — its Flatpak permission (xdg-pictures).")
        #expect(reach([["home"]]).sentence.hasPrefix("Sees your whole home folder"))
        #expect(reach([]).sentence == "Cannot reach your photos.")
    }

    @Test("string lists read GLib's escapes and a missing last separator")
    func lists() {
        #expect(KeyFileText.listEntries("a;b\\;c;;d") == ["a", "b;c", "d"])
        #expect(KeyFileText.listValue(["a", "b;c"]) == "a;b\\;c;")
    }

    @Test("limiting writes into a new file, and taking it back leaves no file's worth of lines")
    func freshFile() {
        var file = KeyFileText("")
        let wanted = PicturesOverride.wanted(reach: reach([["xdg-pictures"]]), pictures: "Pictures", takeBroad: false)
        let record = PicturesOverride.apply(wanted, to: &file)
        #expect(file.text == "[Context]\nfilesystems=!xdg-pictures;\npersistent=Pictures;\n")
        record.revert(&file)
        #expect(file.isBlank)
        #expect(file.text == "")
    }

    @Test("the person's lines stay byte for byte: comments, other groups, their own entries, no trailing separator")
    func personsLines() {
        let original = """
            # mine
            [Context]
            filesystems = ~/Documents;xdg-pictures
            shared=network;

            [Environment]
            FOO=bar

            """
        var file = KeyFileText(original)
        let record = PicturesOverride.apply(
            PicturesOverride.wanted(reach: reach([["xdg-pictures"]]), pictures: "Pictures", takeBroad: false), to: &file)
        #expect(file.list("filesystems", in: "Context") == ["~/Documents", "xdg-pictures", "!xdg-pictures"])
        #expect(file.list("persistent", in: "Context") == ["Pictures"])
        #expect(file.value("FOO", in: "Environment") == "bar")
        record.revert(&file)
        #expect(file.text == original)
    }

    @Test("an entry the person wrote is theirs: not recorded, never removed")
    func alreadyThere() {
        var file = KeyFileText("[Context]\npersistent=Pictures;\n")
        let record = PicturesOverride.apply(
            PicturesOverride.wanted(reach: reach([["xdg-pictures"]]), pictures: "Pictures", takeBroad: false), to: &file)
        #expect(record.edits.map(\.key) == ["filesystems"])
        record.revert(&file)
        #expect(file.text == "[Context]\npersistent=Pictures;\n")
    }

    @Test("a key edited since (flatpak override rewrote it) loses photolibd's entries alone")
    func editedSince() {
        var file = KeyFileText("[Context]\nfilesystems=~/Documents;\n")
        let record = PicturesOverride.apply(
            PicturesOverride.wanted(reach: reach([["xdg-pictures"]]), pictures: "Pictures", takeBroad: false), to: &file)
        file.set("filesystems", in: "Context", to: "~/Documents;!xdg-pictures;xdg-download;")
        record.revert(&file)
        #expect(file.list("filesystems", in: "Context") == ["~/Documents", "xdg-download"])
        #expect(file.value("persistent", in: "Context") == nil)
    }

    @Test("broad grants are negated only when the person confirms; paths inside Pictures always")
    func broad() {
        let reach = self.reach([["home", "xdg-pictures/Trips"]])
        let unconfirmed = PicturesOverride.wanted(reach: reach, pictures: "Pictures", takeBroad: false)
        #expect(unconfirmed[0].entries == ["!xdg-pictures", "!xdg-pictures/Trips"])
        let confirmed = PicturesOverride.wanted(reach: reach, pictures: "Pictures", takeBroad: true)
        #expect(confirmed[0].entries == ["!xdg-pictures", "!home", "!xdg-pictures/Trips"])
    }
}

@Suite("The person's Pictures folder, as xdg-user-dirs names it")
struct UserDirectoriesTests {
    @Test("relative to the home, whatever its name; Pictures when unset; nil when it cannot be persisted")
    func pictures() {
        #expect(UserDirectories.pictures(in: "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n", home: "/home/ann") == "Bilder")
        #expect(UserDirectories.pictures(in: "# c\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"/home/ann/Media/Photos/\"", home: "/home/ann") == "Media/Photos")
        #expect(UserDirectories.pictures(in: nil, home: "/home/ann") == "Pictures")
        #expect(UserDirectories.pictures(in: "XDG_PICTURES_DIR=\"$HOME/\"", home: "/home/ann") == nil)
        #expect(UserDirectories.pictures(in: "XDG_PICTURES_DIR=\"/srv/photos\"", home: "/home/ann") == nil)
        #expect(UserDirectories.pictures(in: "XDG_PICTURES_DIR=\"$HOME/../bob\"", home: "/home/ann") == nil)
    }
}

@Suite("What a Flatpak app saved in its Pictures folder")
struct SavedInPicturesTests {
    typealias Diff = ViewDiff<String>
    let libraryTime: Int64 = 1_700_000_000_123_456_789

    func file(_ inode: UInt64, size: Int64 = 10, time: Int64, links: UInt64 = 1) -> Diff.Present {
        .file(PresentFile(inode: inode, stamp: ContentStamp(size: size, modificationTime: time), linkCount: links))
    }

    @Test("photolibd's own copies go, renamed or no longer wanted; the app's files, folders and links stay its own")
    func sorting() {
        let wanted: [String: Diff.Wanted] = ["a.jpg": .file(.clone(source: 1, stamp: ContentStamp(size: 10, modificationTime: libraryTime)))]
        let present: [String: Diff.Present] = [
            "a.jpg": file(20, time: 5),  // edited in place: replaced, not sorted here
            "renamed.jpg": file(21, time: libraryTime),  // an entry the app renamed
            "old.jpg": file(22, size: 99, time: libraryTime + 7),  // an entry of a photo no longer selected
            "saved.jpg": file(23, time: 1_700_000_999_000_000_001),  // what the app wrote
            "linked.jpg": file(24, time: libraryTime, links: 2),  // not a copy of photolibd's
            "Folder": .directory, "link": .other,
        ]
        let times: Set<Int64> = [libraryTime, libraryTime + 7]
        let sorting = SavedInPictures.sort(unwanted: Array(present.keys), present: present, wanted: wanted) { times.contains($0) }
        #expect(Set(sorting.ours) == ["renamed.jpg", "old.jpg"])
        #expect(Set(sorting.saved) == ["saved.jpg", "linked.jpg"])
    }
}

@Suite("Derivatives kept for copies")
struct DerivativeRetentionTests {
    @Test("with links, a derivative no view links goes, unless a Flatpak Pictures folder copies it and it is current; with clones, the current one stays")
    func retention() {
        let check = LocationCheck(inode: 3, size: 12, modificationTime: 1, outcome: .derived(inode: 7, size: 10))
        #expect(!DerivativeRetention.keeps(form: .links, linkCount: 1, inode: 7, check: check))
        #expect(DerivativeRetention.keeps(form: .links, linkCount: 1, inode: 7, check: check, copied: true))
        #expect(!DerivativeRetention.keeps(form: .links, linkCount: 1, inode: 8, check: check, copied: true))
        #expect(DerivativeRetention.keeps(form: .links, linkCount: 2, inode: 8, check: nil))
        #expect(DerivativeRetention.keeps(form: .clones, linkCount: 1, inode: 7, check: check))
    }
}

@Suite("Limiting an app whose permission is its home")
struct BroadGrantTests {
    @Test("confirmed, home goes and the everyday folders come back as home gave them; the record remembers it was confirmed")
    func takenAndGivenBack() {
        let filesystems = FlatpakFilesystems(layers: [["home:ro", "xdg-run/pipewire-0"]])
        let reach = filesystems.reach(pictures: "Pictures", home: "/home/ann")
        let back = PicturesOverride.grantBack(broadModes: filesystems.modes(of: reach.broad))
        #expect(back == ["xdg-desktop:ro", "xdg-documents:ro", "xdg-download:ro", "xdg-music:ro", "xdg-videos:ro"])
        #expect(PicturesOverride.grantBack(broadModes: ["ro", ""]).first == "xdg-desktop")
        var file = KeyFileText("")
        let record = PicturesOverride.apply(PicturesOverride.wanted(reach: reach, pictures: "Pictures", takeBroad: true, grantBack: back), to: &file)
        #expect(file.list("filesystems", in: "Context") == ["!xdg-pictures", "!home"] + back)
        #expect(record.tookBroad)
        // As Flatpak merges it: nothing of Pictures is reached any more.
        #expect(!FlatpakFilesystems(layers: [["home:ro"], file.list("filesystems", in: "Context")]).reach(pictures: "Pictures", home: "/home/ann").reaches)
        let unconfirmed = PicturesOverride.apply(PicturesOverride.wanted(reach: reach, pictures: "Pictures", takeBroad: false, grantBack: back), to: &file)
        #expect(!unconfirmed.tookBroad)
        #expect(PicturesOverride.loss(appName: "GIMP", broad: ["home"]).hasPrefix("Limiting GIMP takes away your home folder (home)"))
    }
}

@Suite("What a Flatpak app's copies cost")
struct CopyWordsTests {
    @Test("in the person's units; nothing said for clones")
    func words() {
        #expect(InstalledFlatpakApp.copyWords(nil) == nil && InstalledFlatpakApp.copyWords(0) == nil)
        #expect(InstalledFlatpakApp.copyWords(512)?.hasPrefix("Its copies of your photos take 512 bytes of disk") == true)
        #expect(InstalledFlatpakApp.copyWords(1_234_567)?.hasPrefix("Its copies of your photos take 1.2 MB of disk") == true)
        #expect(InstalledFlatpakApp.copyWords(45_600_000_000)?.hasPrefix("Its copies of your photos take 45 GB of disk") == true)
    }
}

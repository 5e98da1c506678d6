import PhotoLibCore
import Testing

@Suite("How a limited Flatpak app's Pictures folder holds its photos")
struct PicturesFolderFormTests {
    @Test("clones where the folder's filesystem clones, FUSE where it cannot, copies only where neither can be used, saying why")
    func order() {
        let ext4 = CloneSupport.unsupported(reason: "O_TMPFILE: Operation not supported")
        #expect(PicturesFolderForm.decide(clones: .supported, fuse: .available) == .clones)
        #expect(PicturesFolderForm.decide(clones: .supported, fuse: .unavailable(reason: "no /dev/fuse")) == .clones)
        #expect(PicturesFolderForm.decide(clones: ext4, fuse: .available) == .mirror)
        let copies = PicturesFolderForm.decide(clones: ext4, fuse: .unavailable(reason: "this process runs with no_new_privs"))
        guard case .copies(let reason) = copies else {
            Issue.record("expected copies, got \(copies)")
            return
        }
        #expect(reason.contains("O_TMPFILE: Operation not supported") && reason.contains("no_new_privs"))
        #expect([PicturesFolderForm.clones, .mirror, copies].map(\.name) == ["clones", "fuse", "copies"])
    }
}

@Suite("The kernel's mount table")
struct MountInfoLineTests {
    @Test("a view's mount is found by its type, its mount point's escapes decoded; optional fields and odd lines do not confuse it")
    func parse() {
        let text = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            97 22 0:52 / /home/ann\\040b/.var/app/org.test.Hello/Pictures rw,nosuid,nodev,noexec,noatime shared:60 master:3 - fuse.photolibd-view photolibd rw,user_id=1000,group_id=1000,default_permissions
            not a mount line
            98 22 0:53 / /tmp/x\\134y rw - fuse.sshfs me@host:/srv rw
            """
        let lines = MountInfoLine.parse(text)
        #expect(lines.count == 3)
        #expect(lines[1] == MountInfoLine(mountPoint: "/home/ann b/.var/app/org.test.Hello/Pictures", type: MountInfoLine.viewType, source: "photolibd"))
        #expect(lines[2].mountPoint == "/tmp/x\\y" && lines[2].type == "fuse.sshfs")
        #expect(lines[0].mountPoint == "/" && lines[0].type == "ext4")
    }
}

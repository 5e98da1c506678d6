import PhotoLibCore
import Testing

/// Who a peer is (SPEC §4), on fakes: the listener it used, its uid, its sandbox.
@Suite("Peer admission")
struct PeerAdmissionTests {
    let owner: UInt32 = 1000
    let viewer = AppID("org.example.Viewer")!
    let other = AppID("org.example.Other")!

    func decide(_ listener: PeerAdmission.Listener, uid: UInt32, apps: [AppID] = [], _ sandbox: SandboxIdentity = .host)
        -> Result<PeerRole, PhotoLibError> {
        PeerAdmission.decide(listener: listener, uid: uid, daemonUID: owner, appsForUID: apps, sandbox: sandbox)
    }

    @Test("main socket: the owner and root outside a sandbox are the admin; a registered uid is its apps; a stranger is refused")
    func mainSocket() {
        #expect(decide(.main, uid: owner) == .success(.admin))
        #expect(decide(.main, uid: 0) == .success(.admin))
        #expect(decide(.main, uid: 4242, apps: [viewer]) == .success(.app([viewer])))
        #expect(decide(.main, uid: 4243) == .failure(.notPermitted(uid: 4243)))
    }

    @Test("main socket: a Flatpak peer is refused whatever its uid, and an owner-uid peer that cannot be told apart is never the admin")
    func mainSocketSandboxes() {
        #expect(decide(.main, uid: owner, .flatpak(appID: "org.example.Viewer")) == .failure(.sandboxedOnMainSocket(appID: "org.example.Viewer")))
        #expect(decide(.main, uid: 4242, apps: [viewer], .flatpak(appID: "org.example.Viewer"))
                == .failure(.sandboxedOnMainSocket(appID: "org.example.Viewer")))
        #expect(decide(.main, uid: owner, .unknown(reason: "gone")) == .failure(.peerUnidentified(uid: owner, reason: "gone")))
        // Root's root directory is out of the owner's reach; root could read the library anyway.
        #expect(decide(.main, uid: 0, .unknown(reason: "EACCES")) == .success(.admin))
        #expect(PeerAdmission.decide(listener: .main, uid: 0, daemonUID: 0, appsForUID: [], sandbox: .unknown(reason: "EACCES"))
                == .success(.admin))
        #expect(decide(.main, uid: 0, .flatpak(appID: "org.x.Y")) == .failure(.sandboxedOnMainSocket(appID: "org.x.Y")))
        // Another uid's root cannot be read by the owner: its uid decides, as before.
        #expect(decide(.main, uid: 4242, apps: [viewer], .unknown(reason: "EACCES")) == .success(.app([viewer])))
    }

    @Test("an endpoint makes its peer that app and nothing more, whatever the uid; never the admin")
    func endpoints() {
        #expect(decide(.endpoint(viewer), uid: owner) == .success(.app([viewer])))
        #expect(decide(.endpoint(viewer), uid: 0) == .success(.app([viewer])))
        #expect(decide(.endpoint(viewer), uid: 4242, apps: [other]) == .success(.app([viewer])))
        #expect(decide(.endpoint(viewer), uid: owner, .flatpak(appID: "org.example.Viewer")) == .success(.app([viewer])))
    }

    @Test("an endpoint refuses a Flatpak app of another ID, and an owner-uid peer it cannot tell apart")
    func endpointMismatch() {
        #expect(decide(.endpoint(viewer), uid: owner, .flatpak(appID: "org.example.Other"))
                == .failure(.endpointOfAnotherApp(endpoint: viewer, flatpakApp: "org.example.Other")))
        #expect(decide(.endpoint(viewer), uid: owner, .unknown(reason: "gone")) == .failure(.peerUnidentified(uid: owner, reason: "gone")))
        #expect(decide(.endpoint(viewer), uid: 4242, .unknown(reason: "EACCES")) == .success(.app([viewer])))
    }

    @Test(".flatpak-info: the Application name, or the Runtime's; comments, spaces and other groups are skipped; a broken file names nothing")
    func flatpakInfo() {
        let app = "[Application]\nname=org.example.Viewer\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n[Instance]\ninstance-id=123\nname=not-this\n"
        #expect(FlatpakInfo.appID(in: Array(app.utf8)) == "org.example.Viewer")
        #expect(FlatpakInfo.appID(in: Array("# made by flatpak\n[Application]\n name = org.x.Y \n".utf8)) == "org.x.Y")
        #expect(FlatpakInfo.appID(in: Array("[Runtime]\nname=org.gnome.Platform\n".utf8)) == "org.gnome.Platform")
        #expect(FlatpakInfo.appID(in: Array("[Application\nname=org.x.Y\n".utf8)) == nil)
        #expect(FlatpakInfo.appID(in: Array("[Instance]\nname=org.x.Y\n".utf8)) == nil)
        #expect(FlatpakInfo.appID(in: []) == nil)
    }
}

@Suite("What /proc says of a peer's sandbox")
struct ProcessFactsTests {
    @Test("the pid namespace depth is the number of pids on NSpid")
    func depth() {
        #expect(ProcessFacts.pidNamespaceDepth(status: Array("Name:\tpython3\nNSpid:\t4242\t2\nUid:\t1000\n".utf8)) == 2)
        #expect(ProcessFacts.pidNamespaceDepth(status: Array("NSpid:\t4242\n".utf8)) == 1)
        #expect(ProcessFacts.pidNamespaceDepth(status: Array("Name:\tx\n".utf8)) == nil)
    }

    @Test("a Flatpak app's systemd scope names it; other cgroups name nothing")
    func scope() {
        let flatpak = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-org.example.Viewer-12345.scope\n"
        #expect(ProcessFacts.flatpakAppID(cgroup: Array(flatpak.utf8)) == "org.example.Viewer")
        #expect(ProcessFacts.flatpakAppID(cgroup: Array("0::/user.slice/user-1000.slice/session-2.scope\n".utf8)) == nil)
        #expect(ProcessFacts.flatpakAppID(cgroup: Array("0::/app.slice/app-flatpak-not an id-1.scope\n".utf8)) == nil)
        #expect(ProcessFacts.flatpakAppID(cgroup: Array("0::/app.slice/app-flatpak-org.x.Y-abc.scope\n".utf8)) == nil)
    }
}

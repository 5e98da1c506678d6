import PhotoLibCore
import Testing

@Suite("A socket path must fit sun_path")
struct SocketPathRuleTests {
    @Test("107 bytes fit, 108 do not, counted in bytes rather than characters")
    func limitInBytes() throws {
        try SocketPathRule.check("/" + String(repeating: "a", count: 106))
        #expect(throws: PhotoLibError.socketPathTooLong(path: "/" + String(repeating: "a", count: 107), bytes: 108)) {
            try SocketPathRule.check("/" + String(repeating: "a", count: 107))
        }
        // "é" is two bytes: 54 of them are 108 bytes, however few characters.
        #expect(throws: PhotoLibError.self) { try SocketPathRule.check(String(repeating: "é", count: 54)) }
    }

    @Test("the daemon's check covers the longest endpoint it will bind beside the socket")
    func endpointBesideSocket() throws {
        let directory = "/run/user/1000/" + String(repeating: "d", count: 60)
        try SocketPathRule.check(directory + "/photolibd.sock")
        #expect(throws: PhotoLibError.self) {
            try SocketPathRule.checkDaemon(socket: directory + "/photolibd.sock", endpointsDirectory: directory + "/photolibd-endpoints")
        }
        try SocketPathRule.checkDaemon(socket: "/run/user/1000/photolibd.sock", endpointsDirectory: "/run/user/1000/photolibd-endpoints")
    }
}

@Suite("The daemon's own directories")
struct DaemonDirectoriesTests {
    @Test("state is the daemon's alone; views, inboxes and endpoints are entered by name, never listed")
    func plan() {
        let plan = DaemonDirectories.plan(state: "/s", views: "/v", inboxes: "/i", endpoints: "/e")
        #expect(plan.map(\.path) == ["/s", "/v", "/i", "/e"])
        #expect(plan.map(\.access.mode) == [0o700, 0o711, 0o711, 0o711])
    }

    @Test("views inside the library, or the library inside the views, are refused; siblings with a common prefix are not")
    func apart() throws {
        #expect(throws: PhotoLibError.viewsInsideLibrary(library: "~/Pictures", views: "~/Pictures/views")) {
            try DaemonDirectories.checkApart(library: "~/Pictures", views: "~/Pictures/views",
                                             canonicalLibrary: "/home/ann/Pictures", canonicalViews: "/home/ann/Pictures/views")
        }
        #expect(throws: PhotoLibError.self) {
            try DaemonDirectories.checkApart(library: "/srv", views: "/", canonicalLibrary: "/srv", canonicalViews: "/")
        }
        #expect(throws: PhotoLibError.self) {
            try DaemonDirectories.checkApart(library: "/p", views: "/p", canonicalLibrary: "/p", canonicalViews: "/p")
        }
        try DaemonDirectories.checkApart(library: "/home/ann/Pictures", views: "/home/ann/Pictures-views",
                                         canonicalLibrary: "/home/ann/Pictures", canonicalViews: "/home/ann/Pictures-views")
    }

    @Test("only directories made above the views or inboxes are let through, not those reached themselves or elsewhere")
    func letThrough() {
        let made = ["/var/lib/pl", "/var/lib/pl/views", "/var/lib/pl/inboxes", "/run/pl", "/run/pl/endpoints"]
        #expect(DaemonDirectories.letThrough(made: made, reached: ["/var/lib/pl/views", "/var/lib/pl/inboxes"]) == ["/var/lib/pl"])
    }
}

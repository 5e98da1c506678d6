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

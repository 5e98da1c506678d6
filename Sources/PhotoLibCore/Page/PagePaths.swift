/// Where the page server and `photolibctl ui` meet, beside the daemon's socket.
///
/// Both know the daemon's socket, so both derive the same directory from it,
/// as the apps' endpoints are (`photolibd-endpoints/` beside the socket): in
/// `$XDG_RUNTIME_DIR` by default, which only the owner can enter. The
/// directory is the page server's own (0700): `server.json` says where it
/// listens, and `sign-in/` holds one-time secrets that `photolibctl ui`
/// writes (0600) and the server takes once. A secret never rides on a command
/// line or in an environment, which other processes can read.
public struct PagePaths: Sendable, Equatable {
    public let directory: String

    public init(socket: String) {
        let parent = socket.lastIndex(of: "/").map { String(socket[..<$0]) } ?? "."
        directory = (parent.isEmpty ? "" : parent) + "/photolibd-page"
    }

    /// `{"pid": …, "port": …}` of the running page server.
    public var serverFile: String { directory + "/server.json" }
    /// One file per one-time sign-in secret, named by a non-secret ID.
    public var signInDirectory: String { directory + "/sign-in" }
    /// A page that signs the browser in (a form posting the secret), for `photolibctl ui` to open.
    public func signInPage(_ id: String) -> String { directory + "/open-" + id + ".html" }
    /// The page server's log, when `photolibctl ui` started it.
    public var logFile: String { directory + "/page.log" }
}

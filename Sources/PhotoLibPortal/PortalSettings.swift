import PhotoLibCore
import PhotoLibSystem

/// How the file-chooser backend runs (`photolibd-portal`'s options).
public struct PortalSettings: Sendable {
    /// The bus name the backend takes (its `.portal` file's `DBusName`).
    public var busName: String
    /// The backend every call it does not answer goes to, unchanged.
    public var forwardTo: String
    /// photolibd's main socket.
    public var socket: String
    /// Where the private copies of picks are kept until they expire.
    public var shelfDirectory: String
    /// How long a pick's copies stay readable, in seconds.
    public var keepSeconds: Int64
    /// How long a sheet waits for the person before the pick is withdrawn, in seconds.
    public var sheetSeconds: Int
    /// Exit after this many seconds with no call open and no copy waiting to expire.
    public var idleSeconds: Double
    /// The uid the backend runs as: the person's, whose apps it registers and whose copies it keeps.
    public var ownerUID: UInt32
    /// The time of day, for when copies expire.
    public var clock: any WallClock

    public init(busName: String, forwardTo: String, socket: String, shelfDirectory: String, keepSeconds: Int64, sheetSeconds: Int,
                idleSeconds: Double, ownerUID: UInt32 = ProcessIdentity.userID, clock: any WallClock = SystemClock()) {
        self.ownerUID = ownerUID
        self.clock = clock
        self.busName = busName
        self.forwardTo = forwardTo
        self.socket = socket
        self.shelfDirectory = shelfDirectory
        self.keepSeconds = keepSeconds
        self.sheetSeconds = sheetSeconds
        self.idleSeconds = idleSeconds
    }
}

import ArgumentParser
import PhotoLibCore

/// photolibctl's exit statuses, as `--help` and the man page list them, so
/// scripts can tell "the daemon is not running" from "no such app" without
/// reading the message.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// The daemon refused or could not do what was asked, for another reason (the message says which).
    case failure = 1
    /// The command line, or a value in it, is wrong.
    case usage = 2
    /// The app, asset, album or path named does not exist.
    case notFound = 3
    /// The caller may not do this (not the owner, another app's view).
    case notPermitted = 4
    /// No daemon answers on the socket.
    case daemonNotRunning = 5

    /// The status for an error the daemon (or the connection to it) gave, by its stable code.
    static func of(_ error: PhotoLibError) -> ExitStatus {
        switch error.code {
        case "unknownApp", "unknownAsset", "notAnAsset", "unknownAlbum", "unknownRequest": .notFound
        case "notPermitted", "adminOnly", "otherAppsView", "sandboxedOnMainSocket", "endpointOfAnotherApp", "peerUnidentified": .notPermitted
        case "daemonNotRunning": .daemonNotRunning
        case "invalidParameter", "invalidAppID", "invalidAssetID", "invalidStatus", "invalidAccessLevel",
             "invalidAnswer", "answerItemsNeedLimited", "answerNotForAddOnly", "ambiguousApp", "sinceNeedsOneApp", "sinceInFuture",
             "grantEndsInPast", "socketPathTooLong", "pickNothingChosen", "pickOverLimit", "pickChosenTwice", "pickTypeNotAsked": .usage
        default: .failure
        }
    }

    /// The list for `--help` and the man page.
    static let documentation = """
        Exit status: 0 success; 1 the daemon refused or failed the request; 2 bad usage (an unknown \
        option, a malformed ID, status or path); 3 not found (no such app, asset, album, path or pending request); \
        4 permission refused (only the library's owner may do this, or another app's view); \
        5 the daemon is not running (nothing answers on the socket).
        """

    var exitCode: ExitCode { ExitCode(rawValue) }
}

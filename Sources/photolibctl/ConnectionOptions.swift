import ArgumentParser
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

/// Options every command shares: where the daemon listens.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "The daemon's socket (default: $PHOTOLIBD_SOCKET, else $XDG_RUNTIME_DIR/photolibd.sock).")
    var socket: String?

    /// Connects, runs `body`, and turns any failure into one line on stderr and
    /// the exit status its kind documents (`ExitStatus`).
    func withConnection<T>(_ body: (PhotoLibConnection) throws -> T) throws -> T {
        do {
            let connection = try PhotoLibConnection(socketPath: PhotoLibConnection.socketPath(explicit: socket))
            return try body(connection)
        } catch let error as PhotoLibError {
            // A progress line may be half drawn on the terminal: the error takes its place, not its end.
            if isatty(STDERR_FILENO) == 1 { StandardError.write("\r\u{1B}[K") }
            Output.error(error.message)
            throw ExitStatus.of(error).exitCode
        }
    }
}

/// `--json` for listing commands.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}

import Glibc

/// A short-lived connection to the person's D-Bus session bus: connect,
/// authenticate as this uid, call one method, wait (boundedly) for its reply.
///
/// Blocking: callers run it off the daemon's event loops and actor.
public enum SessionBus {
    /// The bus socket from `DBUS_SESSION_BUS_ADDRESS` (its first `unix:path=` or
    /// `unix:abstract=` address), else `$XDG_RUNTIME_DIR/bus` where it exists.
    /// An abstract socket is returned as `@name`.
    public static func socketPath(environment: (String) -> String?) throws(DBusError) -> String {
        if let address = environment("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty {
            for candidate in address.split(separator: ";") {
                guard candidate.hasPrefix("unix:") else { continue }
                for pair in candidate.dropFirst(5).split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, let value = unescape(parts[1]) else { continue }
                    if parts[0] == "path" { return value }
                    if parts[0] == "abstract" { return "@" + value }
                }
            }
            throw .unsupportedAddress(address)
        }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty, access(runtime + "/bus", F_OK) == 0 {
            return runtime + "/bus"
        }
        throw .noBus
    }

    /// Calls one method and waits up to `timeoutSeconds` for its return.
    public static func call(
        socketPath: String, destination: String, path: String, interface: String, member: String,
        arguments: [DBusMessage.Argument], timeoutSeconds: Int = 3
    ) throws(DBusError) {
        let socket: UnixStreamSocket
        do {
            socket = try UnixStreamSocket(connectingTo: socketPath)
        } catch {
            throw .system(error)
        }
        socket.setReceiveTimeout(seconds: timeoutSeconds)
        var pending: [UInt8] = []
        do {
            // SASL EXTERNAL: the bus checks the uid against the socket's credentials.
            let uid = Array(String(getuid()).utf8).map { String($0, radix: 16) }.joined()
            try socket.write([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
            let answer = try readLine(socket, &pending)
            guard answer.hasPrefix("OK ") else { throw DBusError.authenticationRefused(answer) }
            try socket.write(Array("BEGIN\r\n".utf8))
            // Hello must come first on a bus; the call may follow without waiting.
            try socket.write(DBusMessage.methodCall(
                serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "Hello", arguments: []))
            try socket.write(DBusMessage.methodCall(
                serial: 2, destination: destination, path: path, interface: interface, member: member, arguments: arguments))
            while true {
                guard let header = try DBusMessage.header(of: pending) else {
                    let chunk = try socket.read()
                    if chunk.isEmpty { throw DBusError.malformed("end of stream before the reply") }
                    pending += chunk
                    continue
                }
                pending.removeFirst(header.length)
                guard header.replySerial == 2 else { continue }  // Hello's reply, NameAcquired
                if header.type == 3 { throw DBusError.remote(header.errorName ?? "an unnamed error") }
                return
            }
        } catch let error as DBusError {
            throw error
        } catch let error as SystemCallError {
            throw error.errno == EAGAIN || error.errno == EWOULDBLOCK ? .timedOut : .system(error)
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// One line of the authentication exchange, without its CRLF.
    private static func readLine(_ socket: UnixStreamSocket, _ pending: inout [UInt8]) throws -> String {
        while true {
            if let end = pending.firstIndex(of: 0x0A) {
                let line = pending[..<end]
                pending.removeFirst(end + 1)
                return String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
            }
            let chunk = try socket.read()
            if chunk.isEmpty { throw DBusError.malformed("end of stream during authentication") }
            pending += chunk
            if pending.count > 4096 { throw DBusError.malformed("an over-long authentication line") }
        }
    }

    /// D-Bus address values escape bytes as `%XX`.
    private static func unescape(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

import Glibc

/// A short-lived D-Bus connection: connect, authenticate as this uid, make
/// a few method calls, wait (boundedly) for their replies. To the person's
/// session bus (desktop notifications), or straight to a peer such as the
/// systemd user manager's private socket (`viaBus: false`: no bus, no Hello).
///
/// Blocking: callers run it off the daemon's event loops and actor.
public enum DBusClient {
    /// The session bus's socket from `DBUS_SESSION_BUS_ADDRESS` (its first `unix:path=` or
    /// `unix:abstract=` address), else `$XDG_RUNTIME_DIR/bus` where it exists.
    /// An abstract socket is returned as `@name`.
    public static func sessionBusSocket(environment: (String) -> String?) throws(DBusError) -> String {
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

    /// One method call.
    public struct Call: Sendable {
        public var member: String
        public var arguments: [DBusMessage.Argument]

        public init(_ member: String, _ arguments: [DBusMessage.Argument]) {
            self.member = member
            self.arguments = arguments
        }
    }

    /// Calls one method on a bus and waits up to `timeoutSeconds` for its return.
    public static func call(
        socketPath: String, destination: String, path: String, interface: String, member: String,
        arguments: [DBusMessage.Argument], timeoutSeconds: Int = 3
    ) throws(DBusError) {
        let results = try calls(socketPath: socketPath, viaBus: true, destination: destination, path: path, interface: interface,
                                [Call(member, arguments)], timeoutSeconds: timeoutSeconds)
        if let error = results[0] { throw error }
    }

    /// Makes several calls on one connection, in order, and returns each one's
    /// failure (nil: it returned). Failing to reach the bus at all is thrown.
    public static func calls(
        socketPath: String, viaBus: Bool, destination: String, path: String, interface: String, _ calls: [Call], timeoutSeconds: Int = 3
    ) throws(DBusError) -> [DBusError?] {
        let socket: UnixStreamSocket
        do {
            socket = try UnixStreamSocket(connectingTo: socketPath)
        } catch {
            throw .system(error)
        }
        do {
            try socket.setReceiveTimeout(seconds: timeoutSeconds)
        } catch {
            throw .system(error)
        }
        var pending: [UInt8] = []
        do {
            // SASL EXTERNAL: the bus checks the uid against the socket's credentials.
            let uid = Array(String(getuid()).utf8).map { String($0, radix: 16) }.joined()
            try socket.write([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
            let answer = try readLine(socket, &pending)
            guard answer.hasPrefix("OK ") else { throw DBusError.authenticationRefused(answer) }
            try socket.write(Array("BEGIN\r\n".utf8))
            // Hello must come first on a bus (a direct peer has none); the calls may follow without waiting.
            var out = viaBus ? DBusMessage.methodCall(
                serial: 1, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "Hello", arguments: []) : []
            for (index, call) in calls.enumerated() {
                out += DBusMessage.methodCall(serial: UInt32(index + 2), destination: destination, path: path, interface: interface,
                                              member: call.member, arguments: call.arguments)
            }
            try socket.write(out)
            var results = [DBusError?](repeating: nil, count: calls.count)
            var answered = 0
            while answered < calls.count {
                guard let header = try DBusMessage.header(of: pending) else {
                    let chunk = try socket.read()
                    if chunk.isEmpty { throw DBusError.malformed("end of stream before the reply") }
                    pending += chunk
                    continue
                }
                pending.removeFirst(header.length)
                // Hello's reply (serial 1) and signals such as NameAcquired are not ours.
                guard header.type == 2 || header.type == 3, let serial = header.replySerial, serial >= 2, Int(serial) - 2 < calls.count else { continue }
                if header.type == 3 { results[Int(serial) - 2] = .remote(header.errorName ?? "an unnamed error") }
                answered += 1
            }
            return results
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

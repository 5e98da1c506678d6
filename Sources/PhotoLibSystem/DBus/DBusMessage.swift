/// The D-Bus wire format, as much of it as photolibd speaks: method calls with
/// string, integer, string-array and empty-dictionary arguments, and enough of
/// a received header to match a reply to its call. Little-endian throughout.
///
/// Written by hand because the one job (one notification per app request) does
/// not justify linking libdbus or GLib into the daemon; the format is the
/// D-Bus Specification's "Message Protocol" section.
public enum DBusMessage {
    /// One argument of a method call.
    public enum Argument: Sendable, Equatable {
        case string(String)
        case uint32(UInt32)
        case int32(Int32)
        case boolean(Bool)
        case stringArray([String])
        /// `a{sv}` with no entries (Notify's hints).
        case emptyDictionary

        var signature: String {
            switch self {
            case .string: "s"
            case .uint32: "u"
            case .int32: "i"
            case .boolean: "b"
            case .stringArray: "as"
            case .emptyDictionary: "a{sv}"
            }
        }
    }

    /// A method call, ready to write.
    public static func methodCall(
        serial: UInt32, destination: String, path: String, interface: String, member: String, arguments: [Argument]
    ) -> [UInt8] {
        var body = Writer()
        for argument in arguments { body.write(argument) }
        var fields = Writer()
        func field(_ code: UInt8, _ signature: String, _ value: String) {
            fields.pad(to: 8)
            fields.bytes.append(code)
            fields.writeSignature(signature)
            if signature == "g" { fields.writeSignature(value) } else { fields.writeString(value) }
        }
        field(1, "o", path)
        field(2, "s", interface)
        field(3, "s", member)
        field(6, "s", destination)
        let signature = arguments.map(\.signature).joined()
        if !signature.isEmpty { field(8, "g", signature) }

        var message = Writer()
        message.bytes += [UInt8(ascii: "l"), 1 /* METHOD_CALL */, 0 /* flags */, 1 /* version */]
        message.writeUInt32(UInt32(body.bytes.count))
        message.writeUInt32(serial)
        message.writeUInt32(UInt32(fields.bytes.count))
        // Field offsets were counted from 0; in the message they start at 16,
        // a multiple of 8, so every alignment holds as written.
        message.bytes += fields.bytes
        message.pad(to: 8)
        message.bytes += body.bytes
        return message
            .bytes
    }

    /// The parts of a received message photolibd looks at.
    public struct Header: Sendable, Equatable {
        /// 1 method call, 2 method return, 3 error, 4 signal.
        public var type: UInt8
        public var replySerial: UInt32?
        public var errorName: String?
        /// Bytes the whole message takes.
        public var length: Int
    }

    /// The header of the first whole message in `bytes`, or nil while more
    /// bytes are needed. Throws on a big-endian or malformed message.
    public static func header(of bytes: [UInt8]) throws(DBusError) -> Header? {
        guard bytes.count >= 16 else { return nil }
        guard bytes[0] == UInt8(ascii: "l") else { throw .malformed("a big-endian message") }
        var reader = Reader(bytes: bytes, offset: 4)
        let bodyLength = Int(try reader.uint32())
        _ = try reader.uint32()  // serial
        let fieldsLength = Int(try reader.uint32())
        let fieldsEnd = 16 + fieldsLength
        let total = ((fieldsEnd + 7) & ~7) + bodyLength
        guard fieldsLength < 1 << 26, bodyLength < 1 << 27 else { throw .malformed("a message longer than the specification allows") }
        guard bytes.count >= total else { return nil }
        var header = Header(type: bytes[1], replySerial: nil, errorName: nil, length: total)
        while reader.offset < fieldsEnd {
            reader.align(8)
            let code = try reader.byte()
            let signature = try reader.signature()
            switch signature {
            case "u":
                let value = try reader.uint32()
                if code == 5 { header.replySerial = value }
            case "s", "o":
                let value = try reader.string()
                if code == 4 { header.errorName = value }
            case "g":
                _ = try reader.signature()
            default:
                throw .malformed("a header field of type '\(signature)'")
            }
        }
        return header
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func pad(to alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }

        mutating func writeUInt32(_ value: UInt32) {
            pad(to: 4)
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }

        mutating func writeString(_ value: String) {
            let utf8 = Array(value.utf8)
            writeUInt32(UInt32(utf8.count))
            bytes += utf8
            bytes.append(0)
        }

        mutating func writeSignature(_ value: String) {
            bytes.append(UInt8(value.utf8.count))
            bytes += Array(value.utf8)
            bytes.append(0)
        }

        mutating func write(_ argument: Argument) {
            switch argument {
            case .string(let value): writeString(value)
            case .uint32(let value): writeUInt32(value)
            case .int32(let value): writeUInt32(UInt32(bitPattern: value))
            case .boolean(let value): writeUInt32(value ? 1 : 0)
            case .stringArray(let values):
                writeUInt32(0)  // length, filled in below
                let lengthAt = bytes.count - 4
                pad(to: 4)
                let start = bytes.count
                for value in values { writeString(value) }
                let length = UInt32(bytes.count - start).littleEndian
                withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
            case .emptyDictionary:
                writeUInt32(0)
                pad(to: 8)  // the first entry's alignment is padded even when there is none
            }
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func align(_ alignment: Int) {
            offset = (offset + alignment - 1) / alignment * alignment
        }

        mutating func byte() throws(DBusError) -> UInt8 {
            guard offset < bytes.count else { throw .malformed("a truncated header") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint32() throws(DBusError) -> UInt32 {
            align(4)
            guard offset + 4 <= bytes.count else { throw .malformed("a truncated header") }
            defer { offset += 4 }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }

        mutating func string() throws(DBusError) -> String {
            let length = Int(try uint32())
            guard offset + length + 1 <= bytes.count else { throw .malformed("a truncated string") }
            defer { offset += length + 1 }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }

        mutating func signature() throws(DBusError) -> String {
            let length = Int(try byte())
            guard offset + length + 1 <= bytes.count else { throw .malformed("a truncated signature") }
            defer { offset += length + 1 }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
    }
}

/// Why talking to a D-Bus bus failed.
public enum DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus address is known (no `DBUS_SESSION_BUS_ADDRESS`, no `$XDG_RUNTIME_DIR/bus`).
    case noBus
    case unsupportedAddress(String)
    case system(SystemCallError)
    case authenticationRefused(String)
    case malformed(String)
    /// The call was answered with a D-Bus error (`org.freedesktop.DBus.Error.ServiceUnknown`: no notification service).
    case remote(String)
    case timedOut

    public var description: String {
        switch self {
        case .noBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist)"
        case .unsupportedAddress(let address): "the bus address '\(address)' has no unix:path= or unix:abstract= part"
        case .system(let error): error.description
        case .authenticationRefused(let line): "the bus refused authentication ('\(line)')"
        case .malformed(let what): "the bus sent \(what)"
        case .remote(let name): "the call failed with \(name)"
        case .timedOut: "the bus did not answer in time"
        }
    }
}

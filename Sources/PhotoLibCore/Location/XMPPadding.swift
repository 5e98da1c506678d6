/// Fits a rewritten XMP packet into the exact room the original had, so a
/// box or item that held it keeps its size.
///
/// XMP packets are made to be padded: the whitespace goes inside the packet
/// wrapper, before `<?xpacket end`, where every reader expects it. A packet
/// left with no properties becomes an empty but valid one, so readers see "no
/// XMP fields" rather than a broken packet.
public enum XMPPadding {
    /// The smallest valid packet with no properties.
    static let emptyPacket = Array("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>\
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>
        """.utf8)
    static let trailer = Array("<?xpacket end=\"w\"?>".utf8)

    /// `packet` (no longer than `length`) padded to exactly `length` bytes.
    public static func fit(_ packet: [UInt8], into length: Int) -> [UInt8] {
        precondition(packet.count <= length)
        var body = packet
        var trailer: [UInt8] = []
        if body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D, 0x00].contains($0) }) {
            guard emptyPacket.count + Self.trailer.count <= length else { return [UInt8](repeating: 0x20, count: length) }
            body = emptyPacket
            trailer = Self.trailer
        } else if let end = lastRange(of: Array("<?xpacket end".utf8), in: body) {
            trailer = Array(body[end...])
            body = Array(body[..<end])
        }
        return body + [UInt8](repeating: 0x20, count: length - body.count - trailer.count) + trailer
    }

    private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

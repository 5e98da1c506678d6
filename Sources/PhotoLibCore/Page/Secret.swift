/// A secret as hex: sign-in secrets, their IDs, sessions and CSRF tokens.
public enum Secret {
    /// `bytes` random bytes from `generator`, as lowercase hex.
    public static func hex<G: RandomNumberGenerator>(bytes: Int, using generator: inout G) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes * 2)
        var remaining = bytes
        while remaining > 0 {
            var word = generator.next() as UInt64
            for _ in 0..<min(8, remaining) {
                out.append(digits[Int(word & 0xF)])
                out.append(digits[Int((word >> 4) & 0xF)])
                word >>= 8
            }
            remaining -= min(8, remaining)
        }
        return out
    }
}

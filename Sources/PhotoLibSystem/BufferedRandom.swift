import CSystemShims

/// The kernel's CSPRNG (`getrandom(2)`, as `SystemRandomNumberGenerator`), read
/// 4 KiB at a time: the first scan of a 100,000-file library draws two numbers
/// per asset ID, and a system call each was 6% of its time (perf, release build).
/// The bytes are the same the system generator would give; they only wait in
/// memory until drawn.
public struct BufferedRandom: RandomNumberGenerator {
    private static let count = 512
    private var buffer = [UInt64](repeating: 0, count: BufferedRandom.count)
    private var position = BufferedRandom.count

    public init() {}

    public mutating func next() -> UInt64 {
        if position == Self.count { refill() }
        defer { position += 1 }
        return buffer[position]
    }

    private mutating func refill() {
        let wanted = Self.count * MemoryLayout<UInt64>.size
        let filled = buffer.withUnsafeMutableBytes { bytes -> Bool in
            var done = 0
            while done < wanted {
                // getrandom with no flags blocks only before the pool is first seeded (early boot), and is
                // never short for this size but may be on a signal; systemCall retries EINTR.
                guard let got = try? systemCall("getrandom", { photolibd_getrandom(bytes.baseAddress! + done, UInt(wanted - done)) }), got > 0 else {
                    return false
                }
                done += Int(got)
            }
            return true
        }
        if !filled {
            // Not expected on any kernel since 3.17; the system generator (which traps rather than fail) answers instead.
            var system = SystemRandomNumberGenerator()
            for index in buffer.indices { buffer[index] = system.next() }
        }
        position = 0
    }
}

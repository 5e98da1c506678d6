import Glibc

/// Reading and writing at an offset (`pread`, `pwrite`), whole or not at all.
public enum PositionalIO {
    /// Exactly `count` bytes at `offset`; fewer only at the end of the file.
    public static func read(_ fd: FileDescriptor, at offset: UInt64, count: Int) throws(SystemCallError) -> [UInt8] {
        guard count > 0 else { return [] }
        var failure: SystemCallError?
        // Not zeroed first: a read of a file's first 128 KiB that finds 700 bytes would spend more on zeros than on the file.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n: Int
                do throws(SystemCallError) {
                    n = try systemCall("pread") { pread(fd.rawValue, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
                } catch {
                    failure = error
                    break
                }
                if n == 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    /// All of `bytes` at `offset`.
    public static func write(_ fd: FileDescriptor, _ bytes: [UInt8], at offset: UInt64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            done += try systemCall("pwrite") {
                bytes.withUnsafeBytes { pwrite(fd.rawValue, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            }
        }
    }
}

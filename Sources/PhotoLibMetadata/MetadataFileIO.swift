import PhotoLibCore
import PhotoLibSystem

/// The file access both strippers share, each failure worded as a `DerivativeProblem`.
enum MetadataFileIO {
    static func mediaFile(_ fd: FileDescriptor) throws(DerivativeProblem) -> DescriptorIsoFile {
        do {
            return try DescriptorIsoFile(fd)
        } catch {
            throw .io(call: error.call, errno: error.errno)
        }
    }

    static func isoPlan(_ file: DescriptorIsoFile) throws(DerivativeProblem) -> IsoLocationPlan {
        do {
            return try IsoLocationPlan.plan(file)
        } catch {
            throw .isoMedia(error)
        }
    }

    static func read(_ file: DescriptorIsoFile, _ span: IsoLocationPlan.Span) throws(DerivativeProblem) -> [UInt8] {
        do {
            return try file.read(at: span.offset, count: span.length)
        } catch {
            throw .isoMedia(error)
        }
    }

    static func write(_ fd: FileDescriptor, _ bytes: [UInt8], at offset: UInt64) throws(DerivativeProblem) {
        try io { () throws(SystemCallError) in try PositionalIO.write(fd, bytes, at: offset) }
    }

    static func io<T>(_ body: () throws(SystemCallError) -> T) throws(DerivativeProblem) -> T {
        do {
            return try body()
        } catch {
            throw .io(call: error.call, errno: error.errno)
        }
    }
}

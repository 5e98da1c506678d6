import Dispatch
public import PhotoLibCore

/// The one slow step of an import (SPEC §7): copying the file's bytes,
/// checking what was copied, and syncing it. It runs on a thread of its own,
/// so the engine answers requests and applies library changes meanwhile; it
/// touches only the two open files, never the engine's state or the store.
public enum ImportCopy {
    public enum Outcome: Sendable {
        /// The copy is not taken in, for this reason; it is still under its temporary name.
        case refused(InboxRefusal, bytes: Int64)
        /// The copy is complete, checked, synced and has the library's mode.
        case copied(bytes: Int64, method: FileCopy.Method, inode: UInt64)
    }

    /// One thread for every import: they run one at a time anyway (the inbox service waits for each).
    private static let queue = DispatchQueue(label: "photolibd-imports")

    public static func run(_ name: FileName, from source: FileDescriptor, to copy: FileDescriptor, expectedSize: Int64,
                           limit: Int64, mode: UInt32) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(SystemCallError) in
                    try copyAndCheck(name, from: source, to: copy, expectedSize: expectedSize, limit: limit, mode: mode)
                })
            }
        }
    }

    private static func copyAndCheck(_ name: FileName, from source: FileDescriptor, to copy: FileDescriptor, expectedSize: Int64,
                                     limit: Int64, mode: UInt32) throws(SystemCallError) -> Outcome {
        let copied = try FileCopy.copy(from: source, to: copy, limit: limit)
        let sourceNow = try Directory.status(of: source).size
        if let refusal = InboxPolicy.judgeCopy(bytes: copied.bytes, limit: limit, expectedSize: expectedSize, sourceSizeNow: sourceNow) {
            return .refused(refusal, bytes: copied.bytes)
        }
        if let refusal = InboxPolicy.verify(name, header: try FileCopy.header(of: copy, count: MediaSignature.headerLength)) {
            return .refused(refusal, bytes: copied.bytes)
        }
        try FileCopy.setMode(copy, mode)
        try FileCopy.sync(copy)
        return .copied(bytes: copied.bytes, method: copied.method, inode: try Directory.status(of: copy).inode)
    }
}

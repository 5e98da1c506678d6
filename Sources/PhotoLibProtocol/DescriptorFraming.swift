/// How a reply line and the descriptors that go with it are cut into
/// `sendmsg` calls (docs/PROTOCOL.md, "Picking").
///
/// One `SCM_RIGHTS` message carries at most 253 descriptors (the kernel's
/// `SCM_MAX_FD`), and descriptors travel attached to bytes. So the first 253
/// ride on the line's first byte, the next 253 on its second, and so on; the
/// last group rides on the rest of the line. A client that reads with
/// `recvmsg` and collects every descriptor that arrives before the line's
/// newline has them all, in order.
public enum DescriptorFraming {
    public static let maximumPerMessage = 253

    /// One `sendmsg`: a range of the line's bytes and of the descriptors.
    public struct Message: Sendable, Equatable {
        public var bytes: Range<Int>
        public var descriptors: Range<Int>

        public init(bytes: Range<Int>, descriptors: Range<Int>) {
            self.bytes = bytes
            self.descriptors = descriptors
        }
    }

    /// The messages for a line of `lineLength` bytes with `descriptorCount`
    /// descriptors; nil when the line is too short to carry them (it never is:
    /// each descriptor's file is described in the line by far more than a byte).
    public static func messages(lineLength: Int, descriptorCount: Int, perMessage: Int = maximumPerMessage) -> [Message]? {
        let groups = max(1, (descriptorCount + perMessage - 1) / perMessage)
        guard lineLength >= groups, perMessage > 0 else { return nil }
        return (0..<groups).map { group in
            let last = group == groups - 1
            return Message(
                bytes: group..<(last ? lineLength : group + 1),
                descriptors: (group * perMessage)..<min(descriptorCount, (group + 1) * perMessage))
        }
    }
}

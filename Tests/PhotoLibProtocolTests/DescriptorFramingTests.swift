import PhotoLibProtocol
import Testing

/// How a reply line and its descriptors are cut into sendmsg calls.
@Suite("Descriptor framing")
struct DescriptorFramingTests {
    @Test("up to 253 descriptors ride on the whole line; more take one byte each, the last group the rest")
    func plan() throws {
        let one = try #require(DescriptorFraming.messages(lineLength: 100, descriptorCount: 3))
        #expect(one == [.init(bytes: 0..<100, descriptors: 0..<3)])
        #expect(DescriptorFraming.messages(lineLength: 10, descriptorCount: 0) == [.init(bytes: 0..<10, descriptors: 0..<0)])
        let many = try #require(DescriptorFraming.messages(lineLength: 1000, descriptorCount: 500))
        #expect(many == [.init(bytes: 0..<1, descriptors: 0..<253), .init(bytes: 1..<1000, descriptors: 253..<500)])
        let cover = try #require(DescriptorFraming.messages(lineLength: 200, descriptorCount: 1000, perMessage: 7))
        #expect(cover.map(\.descriptors.count).reduce(0, +) == 1000)
        #expect(cover.last?.bytes.upperBound == 200 && zip(cover, cover.dropFirst()).allSatisfy { $0.bytes.upperBound == $1.bytes.lowerBound })
        #expect(DescriptorFraming.messages(lineLength: 1, descriptorCount: 300) == nil)
    }
}

import PhotoLibCore
import Testing

@Suite("Which FUSE view mounts a daemon takes for its own")
struct ViewMountNameTests {
    @Test("a views directory's tag is 16 hex digits, the same for the same path and another for another")
    func tags() {
        let tag = ViewMountName.tag(ofViews: "/home/ana/.local/share/photolibd/views")
        #expect(tag.count == 16 && tag.allSatisfy(\.isHexDigit))
        #expect(tag == ViewMountName.tag(ofViews: "/home/ana/.local/share/photolibd/views"))
        #expect(tag != ViewMountName.tag(ofViews: "/home/ana/other/views"))
    }

    @Test("its own mounts and untagged ones are ours; another daemon's, and what is not photolibd's, are not")
    func ownership() {
        let ours = ViewMountName.tag(ofViews: "/home/ana/.local/share/photolibd/views")
        let theirs = ViewMountName.tag(ofViews: "/home/ana/other/views")
        #expect(ViewMountName.isOurs(source: "photolibd:\(ours):00f1a2b3c4d5e6f7", tag: ours))
        #expect(!ViewMountName.isOurs(source: "photolibd:\(theirs):00f1a2b3c4d5e6f7", tag: ours))
        #expect(ViewMountName.isOurs(source: "photolibd", tag: ours), "a server from before the tag")
        #expect(ViewMountName.isOurs(source: "photolibd:00f1a2b3c4d5e6f7", tag: ours), "a server from before the tag, with its number")
        #expect(!ViewMountName.isOurs(source: "bindfs", tag: ours))
        #expect(!ViewMountName.isOurs(source: "photolibdx:\(ours):1", tag: ours))
    }
}

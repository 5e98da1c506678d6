import Testing
@testable import PhotoLibCore

@Suite("Access judged as the kernel does (acl(5))")
struct AccessRuleTests {
    let enter: AccessRule.Bits = 1
    let write: AccessRule.Bits = 2

    @Test("mode only: owner, a group member and others each get their own bits")
    func modeOnly() {
        let rule = AccessRule(owner: 1000, group: 2000, permissions: 0o710)
        #expect(rule.allows(7, uid: 1000, groups: []))
        #expect(rule.allows(enter, uid: 4242, groups: [2000]))
        #expect(!rule.allows(4, uid: 4242, groups: [2000]))
        #expect(!rule.allows(enter, uid: 4242, groups: [3000]))
        #expect(rule.allows(7, uid: 0, groups: []))
    }

    @Test("a group that matches but lacks the bits denies, even when others have them")
    func matchingGroupDenies() {
        let rule = AccessRule(owner: 1000, group: 2000, permissions: 0o705)
        #expect(rule.allows(enter, uid: 4242, groups: []))
        #expect(!rule.allows(enter, uid: 4242, groups: [2000]))
    }

    @Test("a view's ACL decodes: its reader may enter and read, nobody else, and the mask caps named entries")
    func viewAccessList() throws {
        let rule = try #require(AccessRule(owner: 1000, group: 1000, permissions: 0o750, xattr: ViewAccessList(reader: 4242).encoded))
        #expect(rule.namedUsers == [4242: 5])
        #expect(rule.mask == 5)
        #expect(rule.allows(5, uid: 4242, groups: []))
        #expect(!rule.allows(write, uid: 4242, groups: []))
        #expect(!rule.allows(enter, uid: 4243, groups: [1000]))
        var capped = rule
        capped.namedUsers[4242] = 7
        capped.mask = 1
        #expect(capped.allows(enter, uid: 4242, groups: []))
        #expect(!capped.allows(4, uid: 4242, groups: []))
    }

    @Test("named groups count, capped by the mask")
    func namedGroups() {
        var rule = AccessRule(owner: 1000, group: 1000, permissions: 0o700)
        rule.namedGroups = [3000: 1]
        rule.mask = 1
        #expect(rule.allows(enter, uid: 4242, groups: [3000]))
        rule.mask = 0
        #expect(!rule.allows(enter, uid: 4242, groups: [3000]))
    }

    @Test("a malformed ACL value is refused, not half read")
    func malformed() {
        #expect(AccessRule(owner: 1, group: 1, permissions: 0o700, xattr: [2, 0, 0, 0, 1]) == nil)
        #expect(AccessRule(owner: 1, group: 1, permissions: 0o700, xattr: [1, 0, 0, 0]) == nil)
        #expect(AccessRule(owner: 1, group: 1, permissions: 0o700, xattr: [2, 0, 0, 0, 0x40, 0, 7, 0, 0, 0, 0, 0]) == nil)
    }
}

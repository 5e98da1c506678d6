import PhotoLibCore
import Testing

/// The index's event table and its rename rule, on fakes.
@Suite("What the index does for each watch event")
struct IndexStepTests {
    let a = RelativePath(escaped: "Trips/a.jpg")!, b = RelativePath(escaped: "Trips/b.jpg")!

    func observed(links: UInt64) -> FileObservation {
        FileObservation(kind: .regular, facts: FileFacts(device: 1, inode: 2, size: 3, modificationTime: 4, permissions: 0o644),
                        owner: 1000, linkCount: links)
    }

    @Test("a written file is indexed; a bare IN_CREATE only when it came by link(2); a chmod never brings a file in")
    func admissions() {
        #expect(IndexStep.of(.fileWritten(a)) == .refreshFile(a, admission: .always))
        #expect(IndexStep.of(.movedIn(a, isDirectory: false)) == .refreshFile(a, admission: .always))
        #expect(IndexStep.of(.fileCreated(a)) == .refreshFile(a, admission: .ifHardLinked))
        #expect(IndexStep.of(.attributesChanged(a)) == .refreshFile(a, admission: .never))
        #expect(IndexStep.Admission.ifHardLinked.admits(observed(links: 2)))
        #expect(!IndexStep.Admission.ifHardLinked.admits(observed(links: 1)), "still being written")
        #expect(!IndexStep.Admission.never.admits(observed(links: 2)))
    }

    @Test("directories, moves, removals, and what only a full scan can put right")
    func table() {
        let album = RelativePath(escaped: "Trips")!
        #expect(IndexStep.of(.moved(from: a, to: b, isDirectory: false)) == .moveFile(from: a, to: b))
        #expect(IndexStep.of(.moved(from: album, to: b, isDirectory: true)) == .moveAlbum(from: album, to: b))
        #expect(IndexStep.of(.movedIn(album, isDirectory: true)) == .scanNewDirectory(album))
        #expect(IndexStep.of(.directoryCreated(album)) == .scanNewDirectory(album))
        #expect(IndexStep.of(.directoryAttributesChanged(album)) == .rescanSubtree(album))
        #expect(IndexStep.of(.removed(a, isDirectory: false)) == .removeFile(a))
        #expect(IndexStep.of(.removed(album, isDirectory: true)) == .removeAlbum(album))
        #expect(IndexStep.of(.overflow) == .fullScan(overflowed: true))
        #expect(IndexStep.of(.watchesReady(failedDirectories: 0)) == .fullScan(overflowed: false))
        #expect(IndexStep.of(.watchFailed(album, errno: 28)) == .watchFailed(album))
    }

    @Test("a rename: out of the library, over a member (an atomic save keeps the destination's ID), from a temporary name, or a plain move")
    func renames() {
        #expect(RenameOutcome.decide(destinationIsAsset: false, source: 5, destination: nil) == .leftLibrary)
        #expect(RenameOutcome.decide(destinationIsAsset: true, source: 5, destination: 9) == .replacedMember(removeSource: true))
        #expect(RenameOutcome.decide(destinationIsAsset: true, source: nil, destination: 9) == .replacedMember(removeSource: false))
        #expect(RenameOutcome.decide(destinationIsAsset: true, source: 9, destination: 9) == .replacedMember(removeSource: false))
        #expect(RenameOutcome.decide(destinationIsAsset: true, source: nil, destination: nil) == .arrives)
        #expect(RenameOutcome.decide(destinationIsAsset: true, source: 5, destination: nil) == .moves)
    }
}

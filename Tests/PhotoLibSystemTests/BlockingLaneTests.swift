import Glibc
import PhotoLibSystem
import Synchronization
import Testing

@Suite("A lane of blocking work")
struct BlockingLaneTests {
    @Test("pieces run in the order handed over, on the lane's one thread, and a piece that blocks holds only those after it")
    func order() async throws {
        let lane = try BlockingLane(name: "test-lane")
        defer { lane.close() }
        let held = Atomic<Bool>(true)
        let blocked = Task { await lane.run { () -> pthread_t in while held.load(ordering: .acquiring) { usleep(1000) }; return pthread_self() } }
        let next = Task { await lane.run { pthread_self() } }
        // The caller is not held: this test goes on while the lane's first piece blocks.
        try await Task.sleep(for: .milliseconds(50))
        held.store(false, ordering: .releasing)
        let (first, second) = (await blocked.value, await next.value)
        #expect(pthread_equal(first, second) != 0, "one thread")
        #expect(pthread_equal(first, pthread_self()) == 0, "not the caller's")
        let order = Mutex<[Int]>([])
        for index in 0..<20 { _ = await lane.run { order.withLock { $0.append(index) } } }
        #expect(order.withLock { $0 } == Array(0..<20))
    }

    @Test("once closed, what is handed over runs on the caller's thread")
    func closed() async throws {
        let lane = try BlockingLane(name: "test-lane")
        lane.close()
        #expect(await lane.run { 42 } == 42)
    }
}

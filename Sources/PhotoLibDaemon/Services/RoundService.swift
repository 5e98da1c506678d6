import PhotoLibCore
import ServiceLifecycle

/// Runs verification rounds (`Engine.verifyRound`) over what inotify cannot follow, when the
/// schedule says: every `verify_interval` seconds, backing off while nothing changes. Beside them,
/// every few seconds, looks at whether the library's thread is held by a server that stopped
/// answering (`Engine.checkLibraryHeld`): a held round never ends, so it cannot say so itself.
struct RoundService: Service {
    let engine: Engine
    let intervalSeconds: Int

    /// How often the library's thread is looked at: well within `LibraryReach.heldLimitMilliseconds`.
    static let heldCheckSeconds = 3

    func run() async {
        let remote = await engine.libraryIsRemote
        await withDiscardingTaskGroup { group in
            group.addTask { await rounds() }
            // Only a server can hold the library's thread: a local library's daemon is not woken for it.
            if remote { group.addTask { await heldChecks() } }
        }
    }

    private func rounds() async {
        var schedule = RoundSchedule(base: Int64(intervalSeconds) * 1000)
        while await pause(milliseconds: schedule.interval) {
            let found = await engine.verifyRound(interval: schedule.interval)
            schedule.roundEnded(foundChanges: found)
        }
    }

    private func heldChecks() async {
        while await pause(milliseconds: Int64(Self.heldCheckSeconds) * 1000) {
            await engine.checkLibraryHeld()
        }
    }

    /// Waits; false once the daemon is stopping.
    private func pause(milliseconds: Int64) async -> Bool {
        guard !Task.isShuttingDownGracefully && !Task.isCancelled else { return false }
        do {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(milliseconds)) }
            return true
        } catch {
            return false
        }
    }
}

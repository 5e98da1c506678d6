import Logging
import PhotoLibConfiguration
import PhotoLibCore
import PhotoLibStore

/// What the daemon hands the engine when it starts, and never changes while it runs: the
/// configuration, the store, the queue it drains, where it publishes, the clock, the owner's
/// uid, the status board, the log, the alarm a grant's end rings and the place finder's wake.
///
/// Dependencies, not state: the engine's state lives in its owners (`LibraryIndex`,
/// `ViewMaintainer`, `RequestDesk`, `InboxImports`, `AccessReport`, `EngineLifecycle`).
struct EngineSetting: Sendable {
    let configuration: DaemonConfiguration
    let store: Store
    /// The library's watch events, in order.
    let queue: EventQueue
    /// Where `settle` publishes.
    let hub: any EventPublishing
    /// The time of day, for grant ends, requests, imports and the report.
    let clock: any WallClock
    /// The uid the daemon runs as: the library's owner.
    let ownerUID: UInt32
    let board: StatusBoard
    let logger: Logger
    /// Wakes the expiry pass when a grant's end changes (`expireGrants`).
    let expiryAlarm: ExpiryAlarm
    /// Wakes the place finder when new or edited files wait to be looked at.
    let placesDue: PlaceWake
    /// What a batch's probe looks at the library through: the disk, or a test's stand-in.
    let libraryLooker: LibraryLookerMaker
    /// Whether a watch batch's look at the library is made on the library's thread (a remote
    /// library, whose server can stop answering) or on the engine's own (a local one, without a hop).
    let isolatesLibrary: Bool
}

/// The setting's parts by name, as every extension of the engine reads them.
extension Engine {
    nonisolated var configuration: DaemonConfiguration { setting.configuration }
    nonisolated var store: Store { setting.store }
    nonisolated var queue: EventQueue { setting.queue }
    nonisolated var hub: any EventPublishing { setting.hub }
    nonisolated var clock: any WallClock { setting.clock }
    nonisolated var ownerUID: UInt32 { setting.ownerUID }
    nonisolated var board: StatusBoard { setting.board }
    nonisolated var logger: Logger { setting.logger }
    nonisolated var expiryAlarm: ExpiryAlarm { setting.expiryAlarm }
    nonisolated var placesDue: PlaceWake { setting.placesDue }
}

import NIOCore
import PhotoLibCore
import PhotoLibProtocol

// An app's requests to the person: an answer it may wait for, a pick whose files come with the reply.
extension RequestRouter {
    /// An app's request: the reply now when it is decided (or the app does not
    /// wait), else nil, and the reply is written when the person answers.
    func ask(_ kind: RequestKind, app: AppID, wait: Bool, id: RequestID?, connection: Connection) async throws -> [UInt8]? {
        let channel = connection.channel
        let waiter = wait ? RequestAnswers.Waiter(connection: ObjectIdentifier(connection)) { [self] outcome in
            channel.writeAndFlush(ByteBuffer(bytes: reply(id, outcome)), promise: nil)
        } : nil
        let outcome = try await changes.ask(app, kind: kind, waiter: waiter)
        if wait, outcome.requestState == .pending { return nil }
        return reply(id, outcome)
    }

    /// Where a pick's answer goes: the reply line, with the chosen files'
    /// descriptors passed along it (`DescriptorSender`).
    func pickWaiter(id: RequestID?, connection: Connection) -> PickWaiter {
        PickWaiter(
            connection: ObjectIdentifier(connection), peerUID: connection.uid, isOpen: { connection.isOpen },
            deliver: { [self] result, files in
                let channel = connection.channel
                try await connection.sender.send(line: reply(id, result), descriptors: files, on: channel.eventLoop).get()
            })
    }

    /// `pick`: an app asks the person to choose; the reply, with the files, comes when they do.
    func askPick(_ p: PickParams, id: RequestID?, connection: Connection) async throws {
        let options = try PickOptions.parse(types: p.types, limit: p.limit, ordered: p.ordered, accepts: p.accepts)
        if p.notify == false, connection.role != .admin {
            throw PhotoLibError.invalidParameter(name: "notify", reason: "only the library's owner may ask for a pick without a notification")
        }
        let (app, notify, waiter) = (try targetApp(p.app, connection), p.notify ?? true, pickWaiter(id: id, connection: connection))
        try await changes.askPick(app, options: options, notify: notify, waiter: waiter)
    }
}

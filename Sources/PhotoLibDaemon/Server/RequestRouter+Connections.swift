import PhotoLibCore

// The router as the connections' server: what an admitted connection holds in the daemon, and its release.
extension RequestRouter: ConnectionServing {
    func opened(_ connection: Connection) {
        connections.add(connection)
    }

    func closed(_ connection: Connection) {
        requests.answers.forget(connection: ObjectIdentifier(connection))
        connections.remove(connection)
    }

    func left(_ connection: Connection) async {
        let id = ObjectIdentifier(connection)
        if requests.picks.isWaiting(id) { await changes.withdrawPicks(of: id) }
    }

    func awaitsPerson(_ connection: Connection) -> Bool {
        let id = ObjectIdentifier(connection)
        return requests.answers.isWaiting(id) || requests.picks.isWaiting(id)
    }
}

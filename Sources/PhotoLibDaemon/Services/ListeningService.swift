import ServiceLifecycle

/// The main socket and the apps' endpoints: bound before the first scan, closed
/// first at a stop. Meanwhile an endpoint file deleted (a cleanup of the
/// runtime directory, say) is bound again within seconds.
struct ListeningService: Service {
    let server: SocketServer
    let endpoints: EndpointSet

    func run() async {
        await withDiscardingTaskGroup { group in
            // Every connection is a child of the server's run: closed at the stop, and waited for.
            group.addTask { await withGracefulShutdownHandler { await server.run() } onGracefulShutdown: { server.stop() } }
            group.addTask {
                // Ends with the sleep's CancellationError when the shutdown reaches this service.
                try? await cancelWhenGracefulShutdown {
                    while true {
                        try await Task.sleep(for: .seconds(2))
                        await endpoints.repair()
                    }
                }
            }
        }
        await endpoints.closeAll()
    }
}

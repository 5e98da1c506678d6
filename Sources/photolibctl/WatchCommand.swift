import ArgumentParser
import Foundation
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print change events as they come (one JSON object per line with --json).",
        discussion: "Without APP, follows every app (admin only). The person also sees apps' requests as they are made and answered. Stop with Ctrl-C.")

    @Argument(help: "The app to follow.")
    var app: String?

    @Option(help: "Resume after this token: first what changed since, then live events.")
    var since: Int64?

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if since != nil, app == nil {
            throw ValidationError("--since resumes one app's changes; name the APP too.")
        }
    }

    func run() throws {
        try connection.withConnection { connection in
            let result = try connection.subscribe(app: app, since: since)
            if !output.json {
                let token = result.token.map { " at token \($0)" } ?? ""
                print("Watching \(result.apps.isEmpty ? "every app" : result.apps.joined(separator: ", "))\(token).")
                fflush(nil)  // nil flushes every stream, stdout included
            }
            while true {
                let event = try connection.nextEvent()
                if output.json {
                    print(String(decoding: event.line, as: UTF8.self))
                } else {
                    print(try Self.describe(event))
                }
                fflush(nil)  // nil flushes every stream, stdout included
            }
        }
    }

    static func describe(_ event: ReceivedEvent) throws -> String {
        let head = "[\(event.head.token.map(String.init) ?? "-")] \(event.head.app)"
        switch event.head.event {
        case "change":
            let change = try event.decode(ChangeEvent.self)
            guard change.incremental else { return "\(head) changed too much to list: reload" }
            var lines = ["\(head) \(change.removed.count) removed, \(change.inserted.count) inserted, \(change.changed.count) changed"]
            lines += change.removed.map { "  - \($0.id) \($0.entry)" }
            lines += change.inserted.map { "  + \($0.id) \($0.entry)" }
            lines += change.changed.map { "  ~ \($0.id) \($0.entry)" }
            return lines.joined(separator: "\n")
        case "authorization":
            let auth = try event.decode(AuthorizationEvent.self)
            let answering = auth.request.map { " answering request \($0)" } ?? ""
            if auth.state == "cancelled" { return "\(head) request \(auth.request ?? 0) for \(auth.access) was cancelled; still \(auth.status)" }
            return "\(head) is now \(auth.status) for \(auth.access)\(answering) (by uid \(auth.by.uid), \(auth.by.role))"
        case "selection":
            let selection = try event.decode(SelectionEvent.self)
            if selection.state == "cancelled" { return "\(head) review request \(selection.request ?? 0) was cancelled" }
            let answering = selection.request.map { " answering request \($0)" } ?? ""
            return "\(head) selection\(answering): +\(selection.addedAssets.count) assets, -\(selection.removedAssets.count) assets, +\(selection.addedAlbums) albums, -\(selection.removedAlbums) albums (by uid \(selection.by.uid), \(selection.by.role))"
        case "request":
            let request = try event.decode(RequestEvent.self)
            let asks = RequestsCommand.asks(RequestInfo(request: request.request, app: request.app, purpose: request.purpose, kind: request.kind,
                                                        access: request.access, createdAt: request.createdAt, pick: request.pick))
            switch request.state {
            case "pending":
                let purpose = request.purpose.isEmpty ? "" : " (purpose: \(request.purpose))"
                return "\(head) asks for \(asks)\(purpose): request \(request.request); answer with 'photolibctl answer \(request.request) …'"
            case "answered" where request.kind == "pick":
                return "\(head) request \(request.request) (\(asks)) answered: the chosen files were handed over once"
            case "answered":
                return "\(head) request \(request.request) (\(asks)) answered: \(request.answer ?? "decided")"
            default:
                return "\(head) request \(request.request) (\(asks)) \(request.state)"
            }
        case "reset":
            let reset = try event.decode(ResetEvent.self)
            return "\(head) reset: \(reset.reason)"
        default:
            return "\(head) \(event.head.event)"
        }
    }
}

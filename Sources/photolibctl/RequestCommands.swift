import ArgumentParser
import Foundation
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

/// `photolibctl requests`: what apps are waiting for the person to decide.
struct RequestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "List pending requests: apps asking for access or for a review of their selection.",
        discussion: "Answer one with 'photolibctl answer REQUEST …'.")

    @Argument(help: "Only this app's requests.")
    var app: String?

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let result = try connection.withConnection { try $0.call(.requests, RequestsParams(app: app), returning: RequestsResult.self) }
        if output.json { return Output.json(result) }
        if result.requests.isEmpty {
            print("No pending requests.")
            return
        }
        Output.table(["REQUEST", "APP", "ASKS", "SINCE", "PURPOSE"], result.requests.map { request in
            [String(request.request), request.app, Self.asks(request), Output.date(request.createdAt * 1_000_000_000),
             request.purpose.isEmpty ? "-" : request.purpose]
        })
    }

    static func asks(_ request: RequestInfo) -> String {
        switch (request.kind, request.access) {
        case ("authorization", "addOnly"): "add-only access"
        case ("authorization", _): "read-write access"
        case ("review", _): "review of selection"
        case ("pick", _):
            request.pick.map { pick in
                let count = pick.limit == 0 ? "any number" : "up to \(pick.limit)"
                return "pick: \(count) of \(pick.types.joined(separator: "/"))\(pick.ordered ? ", in order" : "")"
            } ?? "pick"
        default: request.kind
        }
    }
}

/// `photolibctl answer`: the person decides a pending request.
struct AnswerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer", abstract: "Answer a pending request: authorized, limited (with the assets or albums chosen), denied, or cancel.",
        discussion: """
            For a review (a limited app asking to choose more), 'limited ASSET… [--album A]' adds what the person \
            chose; the app hears which assets are new. For a pick, name the chosen assets (IDs or library paths) \
            in the order the app should receive them: 'photolibctl answer 12 ASSET…'; the app gets those files \
            once, and nothing is added to its view. 'cancel' withdraws the request and changes nothing. \
            What leaves with a pick's photos: --location and --captions (on or off) decide for this pick; \
            without them the app's settings do (photolibctl app set). Camera and lens serial numbers never leave.
            """)

    @Argument(help: "The request number, as 'photolibctl requests' prints it.")
    var request: Int64

    @Argument(help: "authorized, limited, denied or cancel; for a pick, the first chosen asset.")
    var answer: String

    @Argument(help: "With limited: asset IDs, or paths of files in the library, the app may see. For a pick: the chosen assets, in order.")
    var items: [String] = []

    @Option(name: .customLong("album"), help: "With limited: an album (a directory relative to the library) the app may see, live; repeat for more.")
    var albums: [String] = []

    @Option(help: "For a pick: on, where the photos were taken leaves with them (only for an app that may have location); off, it does not.")
    var location: Switch?

    @Option(help: "For a pick: on, captions, titles and people's names leave with the photos; off, they are taken out.")
    var captions: Switch?

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    /// `on` or `off`.
    enum Switch: String, ExpressibleByArgument {
        case on, off
        var isOn: Bool { self == .on }
    }

    /// The answer word and the items: a word that is no answer starts a pick's list of assets.
    var parsed: (answer: RequestAnswer, items: [String]) {
        if let known = RequestAnswer(rawValue: answer) { return (known, items) }
        return (.pick, [answer] + items)
    }

    func validate() throws {
        let (parsed, items) = parsed
        if parsed != .limited, parsed != .pick, !items.isEmpty || !albums.isEmpty {
            throw ValidationError(PhotoLibError.answerItemsNeedLimited(answer: answer).message)
        }
        if parsed != .pick, location != nil || captions != nil {
            throw ValidationError("--location and --captions choose what leaves with a pick's photos; this answer is '\(answer)', not a pick.")
        }
    }

    func run() throws {
        let (answer, items) = parsed
        let progress = ProgressLine(json: output.json)
        defer { progress.clear() }
        let outcome = try connection.withConnection {
            try $0.call(.answer, AnswerParams(request: request, answer: answer.rawValue, assets: items, albums: albums,
                                                   location: location?.isOn, captions: captions?.isOn), returning: RequestOutcome.self,
                        progress: progress.handler)
        }
        progress.clear()
        if output.json { return Output.json(outcome) }
        if outcome.kind == "pick" {
            if outcome.state == "cancelled" {
                print("Request \(request) (\(outcome.app), pick) is cancelled; the app received nothing.")
            } else {
                let count = outcome.pickedAssets?.count ?? 0
                print("Request \(request) (\(outcome.app), pick) answered: \(count) asset\(count == 1 ? "" : "s") handed over once; nothing was added to its view.")
            }
            return
        }
        let what = outcome.kind == "review" ? "selection review" : "\(outcome.access == "addOnly" ? "add-only" : "read-write") access"
        if outcome.state == "cancelled" {
            print("Request \(request) (\(outcome.app), \(what)) is cancelled; nothing changed.")
            return
        }
        let added = outcome.addedAssets.map { $0.isEmpty ? "" : "; \($0.count) assets newly shared" } ?? ""
        print("Request \(request) (\(outcome.app), \(what)) answered: \(outcome.app) is now \(outcome.status)\(added).")
    }
}

import ArgumentParser
import Foundation
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol

/// `photolibctl report`: which app opened or was handed which photo, when.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Show which app opened (through its view) or was handed (by a pick) which photo, and when.",
        discussion: """
            Opens through the app's view are counted; an open of the same file another way is not. Opens of one photo by \
            one app within a minute are one line. Lines are kept for [report] retention (default 7 days).
            """)

    @Argument(help: "Only this app's lines.")
    var app: String?

    @Option(help: "Only lines from this long ago on: 1h, 2d, 7d.")
    var since: String?

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if let since {
            do {
                _ = try GrantEnd.parseDuration(since)
            } catch {
                throw ValidationError(error.message.replacingOccurrences(of: "'for'", with: "'since'"))
            }
        }
    }

    func run() throws {
        let from = try since.map { Int64(Date().timeIntervalSince1970) - (try GrantEnd.parseDuration($0)) }
        let result = try connection.withConnection { try $0.call(.report, ReportParams(app: app, since: from), returning: ReportResult.self) }
        if output.json { return Output.json(result) }
        if !result.watchingOpens { Output.warning("The views are not watched for opens ([report] watch_opens = false): only picks are listed.") }
        if result.entries.isEmpty {
            print("Nothing was opened or handed over\(since.map { " in the last \($0)" } ?? "").")
            return
        }
        Output.table(["WHEN", "APP", "HOW", "ASSET", "PATH"], result.entries.reversed().map { entry in
            [Output.date(entry.at * 1_000_000_000), entry.app, entry.how == "pick" ? "picked" : "opened", entry.asset, entry.path ?? "(gone)"]
        })
    }
}

import ArgumentParser
import Foundation
import PhotoLibClient
import PhotoLibProtocol

/// The items a selection edit names.
struct SelectionItems: ParsableArguments {
    @Argument(help: "The app's ID.")
    var app: String

    @Argument(help: "Asset IDs, or paths of files in the library.")
    var items: [String] = []

    @Option(name: .customLong("album"), help: "An album (a directory relative to the library); repeat for more. Album grants are live.")
    var albums: [String] = []

    var isEmpty: Bool { items.isEmpty && albums.isEmpty }

    var params: SelectionEditParams { SelectionEditParams(app: app, assets: items, albums: albums) }
}

/// `--taken-from DATE --taken-to DATE [--type T]`: a rule grant.
struct RuleOptions: ParsableArguments {
    @Option(help: "With --taken-to: every asset taken from this date (2024-07-01, 2024-07-01T09:00, local time; or with a zone, or @SECONDS), live.")
    var takenFrom: String?

    @Option(help: "The end of the span; a date alone includes that whole day.")
    var takenTo: String?

    @Option(help: "Only assets of this type: image, video or live.")
    var type: String?

    var isEmpty: Bool { takenFrom == nil && takenTo == nil && type == nil }

    func validate() throws {
        guard !isEmpty else { return }
        guard takenFrom != nil, takenTo != nil else { throw ValidationError("A rule grant needs both --taken-from and --taken-to.") }
        if let type, !["image", "video", "live"].contains(type) { throw ValidationError("'\(type)' is not a type; use image, video or live.") }
        _ = try span
    }

    /// The span in seconds since the epoch, the end exclusive: a date alone for the end means through that day.
    var span: (from: Int64, to: Int64)? {
        get throws {
            guard let takenFrom, let takenTo else { return nil }
            let from = try GrantEndOptions.parseTime(takenFrom)
            var to = try GrantEndOptions.parseTime(takenTo)
            if takenTo.count == 10, !takenTo.hasPrefix("@") { to = try GrantEndOptions.parseTime(Self.dayAfter(takenTo)) }
            guard from < to else { throw ValidationError("--taken-from must come before --taken-to.") }
            return (from, to)
        }
    }

    static func dayAfter(_ date: String) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        guard let day = formatter.date(from: date), let next = Calendar.current.date(byAdding: .day, value: 1, to: day) else {
            throw ValidationError("'\(date)' is not a date; write 2024-07-31.")
        }
        return formatter.string(from: next)
    }
}

struct SelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Add assets or albums to an app's selection (shown in its view when it is limited).",
        discussion: "With --for or --until the grant ends by itself: its links go at that moment, and the app hears it (reason 'expired'). Selecting again sets a new end, or with neither, makes it last.")

    @OptionGroup var selection: SelectionItems
    @OptionGroup(title: "For a while") var end: GrantEndOptions
    @OptionGroup(title: "By when they were taken") var rule: RuleOptions
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if selection.isEmpty && rule.isEmpty {
            throw ValidationError("Name at least one asset ID, path in the library, --album ALBUM, or --taken-from and --taken-to.")
        }
        if !selection.isEmpty && !rule.isEmpty {
            throw ValidationError("Give a rule (--taken-from, --taken-to) on its own, without assets or albums.")
        }
    }

    func run() throws {
        var params = selection.params
        params.forSeconds = try end.seconds
        params.until = try end.untilSeconds
        if let span = try rule.span {
            params.takenFrom = span.from
            params.takenTo = span.to
            params.type = rule.type
            let result = try connection.withConnection { try $0.call(.select, params, returning: SelectionEditResult.self) }
            for made in result.rules ?? [] {
                print("\(selection.app) now sees every \(made.type ?? "asset") taken from \(Output.date(made.takenFrom * 1_000_000_000)) to \(Output.date(made.takenTo * 1_000_000_000)) (rule \(made.rule)), as the library changes.")
            }
            return
        }
        let progress = ProgressLine(json: false)
        defer { progress.clear() }
        let result = try connection.withConnection { try $0.call(.select, params, returning: SelectionEditResult.self, progress: progress.handler) }
        progress.clear()
        let lasting = params.forSeconds == nil && params.until == nil ? "" : " (the grant ends as you said; 'photolibctl selection \(selection.app)' shows when)"
        print("Selected \(Output.count(result.assets.count, "new asset")) and \(Output.count(result.albums.count, "new album")) for \(selection.app)\(lasting).")
        for asset in result.refused ?? [] {
            Output.warning("\(asset.path) is selected but in no view until it is fixed: \(asset.refusedBecause ?? asset.refused ?? "refused").")
        }
    }
}

struct DeselectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deselect", abstract: "Remove assets or albums from an app's selection; their links go at once.")

    @OptionGroup var selection: SelectionItems
    @Option(name: .customLong("rule"), help: "A rule grant to remove, by the number 'photolibctl selection' shows; repeat for more.")
    var rules: [Int64] = []
    @Flag(name: .customLong("rules"), help: "Remove every rule grant of the app.")
    var allRules = false
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if selection.isEmpty && rules.isEmpty && !allRules {
            throw ValidationError("Name at least one asset ID, path in the library, --album ALBUM, --rule N or --rules.")
        }
    }

    func run() throws {
        var params = selection.params
        if !rules.isEmpty || allRules {
            params.rules = rules
            params.allRules = allRules
        }
        let result = try connection.withConnection { try $0.call(.deselect, params, returning: SelectionEditResult.self) }
        if !rules.isEmpty || allRules {
            print("Removed \(Output.count(result.rules?.count ?? 0, "rule grant")) of \(selection.app).")
        }
        if !selection.isEmpty {
            print("Deselected \(Output.count(result.assets.count, "asset")) and \(Output.count(result.albums.count, "album")) for \(selection.app).")
        }
    }
}

struct SelectionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "selection", abstract: "Show an app's selection.")

    @Argument(help: "The app's ID.")
    var app: String

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let result = try connection.withConnection { try $0.call(.selection, AppParams(app: app), returning: SelectionResult.self) }
        if output.json { return Output.json(result) }
        print("\(result.app): \(result.status)")
        for album in result.albums {
            print("album  \(album.isEmpty ? "(whole library)" : album)\(GrantEndOptions.describe(result.ends?.albums[album]))")
        }
        for rule in result.rules ?? [] {
            print("rule \(rule.rule)  every \(rule.type ?? "asset") taken from \(Output.date(rule.takenFrom * 1_000_000_000)) to \(Output.date(rule.takenTo * 1_000_000_000))")
        }
        let timed = result.ends?.assets.isEmpty == false
        Output.table(["ID", "TYPE", "PATH"] + (timed ? ["ENDS"] : []), result.assets.map { asset in
            [asset.id, asset.mediaType, asset.path] + (timed ? [result.ends?.assets[asset.id].map { Output.date($0 * 1_000_000_000) } ?? "-"] : [])
        })
    }
}

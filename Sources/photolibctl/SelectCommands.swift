import ArgumentParser
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

    func validate() throws {
        if items.isEmpty && albums.isEmpty {
            throw ValidationError("Name at least one asset ID, path in the library, or --album ALBUM.")
        }
    }

    var params: SelectionEditParams { SelectionEditParams(app: app, assets: items, albums: albums) }
}

struct SelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select", abstract: "Add assets or albums to an app's selection (shown in its view when it is limited).",
        discussion: "With --for or --until the grant ends by itself: its links go at that moment, and the app hears it (reason 'expired'). Selecting again sets a new end, or with neither, makes it last.")

    @OptionGroup var selection: SelectionItems
    @OptionGroup(title: "For a while") var end: GrantEndOptions
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        var params = selection.params
        params.forSeconds = try end.seconds
        params.until = try end.untilSeconds
        let result = try connection.withConnection { try $0.call(.select, params, returning: SelectionEditResult.self) }
        let lasting = params.forSeconds == nil && params.until == nil ? "" : " (the grant ends as you said; 'photolibctl selection \(selection.app)' shows when)"
        print("Selected \(result.assets.count) new assets and \(result.albums.count) new albums for \(selection.app)\(lasting).")
        for asset in result.refused ?? [] {
            Output.warning("\(asset.path) is selected but in no view until it is fixed: \(asset.refusedBecause ?? asset.refused ?? "refused").")
        }
    }
}

struct DeselectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deselect", abstract: "Remove assets or albums from an app's selection; their links go at once.")

    @OptionGroup var selection: SelectionItems
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let result = try connection.withConnection { try $0.call(.deselect, selection.params, returning: SelectionEditResult.self) }
        print("Deselected \(result.assets.count) assets and \(result.albums.count) albums for \(selection.app).")
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
        let timed = result.ends?.assets.isEmpty == false
        Output.table(["ID", "TYPE", "PATH"] + (timed ? ["ENDS"] : []), result.assets.map { asset in
            [asset.id, asset.mediaType, asset.path] + (timed ? [result.ends?.assets[asset.id].map { Output.date($0 * 1_000_000_000) } ?? "-"] : [])
        })
    }
}

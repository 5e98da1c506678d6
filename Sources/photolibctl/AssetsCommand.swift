import ArgumentParser
import PhotoLibClient
import PhotoLibProtocol

struct AssetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assets", abstract: "List the library's assets with their IDs.")

    @Option(help: "Only assets in this album (a directory relative to the library) and below it.")
    var album: String?

    @Option(help: "Only this type: image, video or live.")
    var type: String?

    @Option(help: "Only names containing this text (ASCII case-insensitive).")
    var search: String?

    @Flag(help: "Only originals left out of every view, with the reason and what to do.")
    var refused = false

    @Option(help: "Also show the ID this app knows each asset by (every app has IDs of its own).")
    var app: String?

    @Flag(help: "Only files left out of the views of apps with location none, because whether they hold a location cannot be told; with why.")
    var withheld = false

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    /// A Live Photo shows as its photo's path and its video's name beside it: `Trips/IMG_1.HEIC + IMG_1.MOV`.
    static func paths(_ asset: AssetInfo) -> String {
        guard let members = asset.members, members.count > 1 else { return asset.path }
        let others = members.dropFirst().map { member in
            member.path.split(separator: "/").last.map(String.init) ?? member.path
        }
        return ([asset.path] + others).joined(separator: " + ")
    }

    func validate() throws {
        if let type, !["image", "video", "live"].contains(type) {
            throw ValidationError("'--type \(type)' is not a type; use image, video or live.")
        }
    }

    func run() throws {
        let result = try connection.withConnection {
            try $0.call(.assets, AssetsParams(album: album, type: type, search: search, refused: refused ? true : nil,
                                                withheld: withheld ? true : nil, app: app), returning: AssetsResult.self)
        }
        if output.json { return Output.json(result.assets) }
        let showApp = app != nil
        let rows: [[String]] = result.assets.map { asset in
            let size = Output.size(asset.size + (asset.members?.dropFirst().reduce(0) { $0 + $1.size } ?? 0))
            var path = Self.paths(asset)
            if asset.refused != nil { path += "  (refused: in no view)" }
            if asset.withheld != nil { path += "  (withheld from apps without location)" }
            return [asset.id] + (showApp ? [asset.appID ?? "-"] : []) + [asset.mediaType, size, path]
        }
        Output.table(["ID"] + (showApp ? ["APP ID"] : []) + ["TYPE", "SIZE", "PATH"], rows)
        let withheldAssets = result.assets.filter { $0.withheld != nil }
        if !withheldAssets.isEmpty {
            print("")
            for asset in withheldAssets {
                print("\(asset.path) is left out of the views of apps with location none: \(asset.withheld ?? ""). Fix or replace the file, or give such apps --location precise.")
            }
        }
        let refusedAssets = result.assets.filter { $0.refused != nil }
        if !refusedAssets.isEmpty {
            print("")
            for asset in refusedAssets {
                let files = asset.members?.filter { $0.refused != nil }.map(\.path) ?? [asset.path]
                print("\(files.joined(separator: " and ")) \(files.count > 1 ? "are" : "is") in no view: \(asset.refusedBecause ?? asset.refused ?? "refused").")
            }
        }
    }
}

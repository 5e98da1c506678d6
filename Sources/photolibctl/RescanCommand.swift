import ArgumentParser
import Foundation
import Glibc
import PhotoLibClient
import PhotoLibCore
import PhotoLibProtocol
import PhotoLibSystem

struct RescanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescan",
        abstract: "Re-walk the whole library, re-add every inotify watch and reconcile every view.",
        discussion: """
            Returns when the rescan is done. On a terminal it shows progress as it goes. Use it after \
            raising fs.inotify.max_user_watches, or when you doubt a view.
            """)

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let progress = ProgressLine(json: output.json)
        defer { progress.clear() }
        let result = try connection.withConnection { try $0.call(.rescan, NoParams(), returning: RescanResult.self, progress: progress.handler) }
        progress.clear()
        if output.json { return Output.json(result) }
        print("Rescanned \(Output.count(result.assets, "asset")) in \(Output.count(result.directories, "directory", "directories")) in \(String(format: "%.2f", result.seconds)) s; every view is reconciled.")
        if result.failedWatches > 0 {
            Output.error("\(result.failedWatches) directories still have no inotify watch; raise fs.inotify.max_user_watches (photolibctl doctor says how far).")
        }
    }
}

import ArgumentParser
import PhotoLibCore
import PhotoLibSystem

/// `photolibctl`: manage photolibd (apps, authorizations, selections) over its socket.
@main
struct PhotoLibCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photolibctl",
        abstract: "Control photolibd: which app sees which photos.",
        discussion: """
            Paths in the library are relative to it (absolute paths inside it work too). \
            Names that are not valid UTF-8 are written with \\xNN escapes and a backslash as \\\\, \
            exactly as 'photolibctl assets' prints them. The options --socket and --json may come \
            before the command too: photolibctl --socket PATH status.

            \(ExitStatus.documentation)
            """,
        version: "0.1.0",
        subcommands: [
            StatusCommand.self, AssetsCommand.self, AppCommand.self, AppsCommand.self, AuthorizeCommand.self,
            SelectCommand.self, DeselectCommand.self, SelectionCommand.self, RequestsCommand.self, AnswerCommand.self, ReportCommand.self, WatchCommand.self, RescanCommand.self, DoctorCommand.self, UICommand.self,
        ]
    )

    /// Runs with the raw argument bytes: an argument that is not valid UTF-8
    /// (a file name typed or completed by the shell) is passed on in escaped
    /// form instead of being mangled by Swift's lossy decoding.
    static func main() {
        ProcessIdentity.unblockSignals()
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            var bytes: [UInt8] = []
            var pointer = UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self)
            while pointer.pointee != 0 {
                bytes.append(pointer.pointee)
                pointer += 1
            }
            if let text = String(validating: bytes, as: UTF8.self) {
                arguments.append(text)
            } else {
                arguments.append(EscapedName.escape(bytes))
            }
        }
        run(GlobalOptions.movedAfterCommand(arguments))
    }

    /// Parses and runs, with bad usage ending in status 2 (`ExitStatus.usage`)
    /// rather than ArgumentParser's 64, as the documented statuses say.
    static func run(_ arguments: [String]) -> Never {
        if let complaint = UnknownCommand.complaint(arguments, root: Self.self) {
            Output.standardError("photolibctl: " + complaint)
            Self.exit(withError: ExitStatus.usage.exitCode)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            exit()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Output.standardError(oneLine(usageError: error))
                Self.exit(withError: ExitStatus.usage.exitCode)
            }
            exit(withError: error)
        }
    }

    /// A usage error as one line, as every other error is: what is wrong, then
    /// where the command's help is (ArgumentParser would add its whole usage).
    static func oneLine(usageError error: any Error) -> String {
        let what = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        let help = fullMessage(for: error).split(separator: "\n")
            .map { $0.drop(while: { $0 == " " }) }
            .first { $0.hasPrefix("See '") }
        let sentence = what.hasSuffix(".") || what.hasSuffix("?") ? what : what + "."
        return "photolibctl: " + sentence + (help.map { " " + $0 } ?? "")
    }
}

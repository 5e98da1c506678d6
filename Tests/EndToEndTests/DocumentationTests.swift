import Foundation
import Testing

/// README is the front door: short, every link in it and in docs/ leads somewhere, and every
/// command on its first screen is one this checkout has (a make target, a photolibctl
/// subcommand, a unit it installs, a program on PATH).
@Suite("README and docs/")
struct DocumentationTests {
    static let root = RunningDaemon.packageRoot

    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md"] + docs.sorted()
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    @Test("README stays under 200 lines; the rest is in docs/")
    func short() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 200, "README.md has \(lines) lines")
    }

    @Test("every relative link and image in README and docs/ names a file that exists, and a heading there when it names one")
    func links() throws {
        var checked = 0
        for document in try Self.documents() {
            let directory = (document as NSString).deletingLastPathComponent
            for link in MarkdownText.links(in: try Self.text(document)) {
                if link.contains("://") || link.hasPrefix("mailto:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? document : ((directory.isEmpty ? "" : directory + "/") + parts[0] as NSString).standardizingPath
                checked += 1
                guard FileManager.default.fileExists(atPath: Self.root + "/" + target) else {
                    Issue.record("\(document): the link \(link) names \(target), which does not exist")
                    continue
                }
                if parts.count == 2, target.hasSuffix(".md") {
                    let anchors = MarkdownText.headings(in: try Self.text(target)).map(MarkdownText.anchor)
                    #expect(anchors.contains(parts[1]), "\(document): the link \(link): \(target) has no heading #\(parts[1])")
                }
            }
        }
        #expect(checked > 20, "only \(checked) links found: the parser misses some")
    }

    @Test("every command on README's first screen exists here: make targets, photolibctl subcommands, units, programs")
    func firstScreenCommands() async throws {
        let readme = try Self.text("README.md")
        let commands = MarkdownText.shellCommands(in: MarkdownText.firstScreen(of: readme))
        #expect(commands.count >= 5, "the first screen shows how to build, install, turn on and open the page: \(commands)")
        let makefile = try Self.text("Makefile")
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            switch words[0] {
            case "make":
                let target = words.count > 1 ? words[1] : ""
                #expect(makefile.contains("\n\(target):"), "README's `\(command)`: the Makefile has no target \(target)")
            case "photolibctl":
                let result = try await run(RunningDaemon.buildDirectory + "/photolibctl", [words[1], "--help"])
                #expect(result.status == 0, "README's `\(command)`: photolibctl has no subcommand \(words[1]): \(result.stderr)")
            case "systemctl":
                for unit in words.dropFirst().filter({ $0.hasPrefix("photolibd") }) {
                    let installed = ["systemd/user/", "systemd/system/"].contains { FileManager.default.fileExists(atPath: Self.root + "/" + $0 + unit) }
                    #expect(installed, "README's `\(command)`: no unit \(unit) in systemd/")
                }
            case "apt-get":
                // The package's name carries the version scripts/make-deb gives it: the daemon's own.
                let daemon = try Self.text("Sources/PhotoLibDaemon/Daemon.swift")
                for package in words where package.hasSuffix(".deb") {
                    #expect(daemon.contains("version = \"\(package.split(separator: "_").dropFirst().first ?? "")\""),
                            "README's `\(command)`: \(package) is not what make deb builds")
                }
                fallthrough
            default:
                let found = ["/usr/bin/", "/bin/", "/usr/sbin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + words[0]) }
                #expect(found, "README's `\(command)`: \(words[0]) is not a program here")
            }
        }
    }

    @Test("PROTOCOL.md names every error code the daemon and photolibctl can give")
    func errorCodes() throws {
        let protocolText = try Self.text("docs/PROTOCOL.md")
        var codes: [String] = []
        for source in ["Sources/PhotoLibCore/Errors/PhotoLibError.swift", "Sources/PhotoLibCore/Errors/PickProblem.swift",
                       "Sources/PhotoLibCore/Inbox/InboxRefusal.swift"] {
            // The `code` switch: one `case .x: "code"` line for each.
            for line in try Self.text(source).split(separator: "\n") where line.contains("case .") {
                guard let open = line.range(of: ": \""), let close = line[open.upperBound...].firstIndex(of: "\"") else { continue }
                codes.append(String(line[open.upperBound..<close]))
            }
        }
        #expect(codes.count > 60, "the code switches were not found: \(codes)")
        for code in codes {
            #expect(protocolText.contains("`\(code)`"), "PROTOCOL.md does not name the error code \(code)")
        }
    }

    @Test("the Markdown reader finds links outside code, headings' anchors as GitHub makes them, and commands in shell blocks")
    func reader() {
        let text = "# A title\n\nSee [this](docs/A.md#b-c) and ![pic](x.png).\n\n```sh\nmake run   # builds\n[not](a-link)\n```\n\n`[nor](this)` ## Not a heading\n## It's B, c!\n"
        #expect(MarkdownText.links(in: text) == ["docs/A.md#b-c", "x.png"])
        #expect(MarkdownText.headings(in: text) == ["A title", "It's B, c!"])
        #expect(MarkdownText.anchor("It's B, c!") == "its-b-c")
        #expect(MarkdownText.anchor("Photos in every app's file dialog") == "photos-in-every-apps-file-dialog")
        #expect(MarkdownText.shellCommands(in: text) == ["make run", "[not](a-link)"])
    }
}

/// Just enough of Markdown to check documents: links and images outside code, headings, and the
/// commands in shell code blocks.
enum MarkdownText {
    /// The targets of `[text](target)` and `![alt](target)`, outside code blocks and inline code.
    static func links(in text: String) -> [String] {
        var found: [String] = []
        for line in prose(text) {
            let withoutCode = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            var rest = Substring(withoutCode)
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                found.append(String(after[..<end]).split(separator: " ").first.map(String.init) ?? "")
                rest = after[end...]
            }
        }
        return found
    }

    /// The text of every heading, outside code blocks.
    static func headings(in text: String) -> [String] {
        prose(text).compactMap { line in
            guard line.hasPrefix("#") else { return nil }
            let title = line.drop { $0 == "#" }
            guard title.hasPrefix(" ") else { return nil }
            return title.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The anchor GitHub gives a heading: lower case, punctuation gone, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    /// README up to its second section: what a person reads before scrolling.
    static func firstScreen(of text: String) -> String {
        var sections = 0
        var kept: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                sections += 1
                if sections == 2 { break }
            }
            kept.append(line)
        }
        return kept.joined(separator: "\n")
    }

    /// Each command in ```sh blocks, its comment taken off.
    static func shellCommands(in text: String) -> [String] {
        var inShell = false
        var commands: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = !inShell && line.hasPrefix("```sh")
                continue
            }
            guard inShell else { continue }
            let command = (line.range(of: " #").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces)
            if !command.isEmpty, !command.hasPrefix("#") { commands.append(command) }
        }
        return commands
    }

    private static func prose(_ text: String) -> [Substring] {
        var inCode = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inCode.toggle()
                return false
            }
            return !inCode
        }
    }
}

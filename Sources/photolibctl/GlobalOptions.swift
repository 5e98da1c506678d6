/// The options every command takes that people put before the command, as
/// with `systemctl --user status` or `git -C DIR log`: `photolibctl --socket
/// PATH status` means `photolibctl status --socket PATH`.
enum GlobalOptions {
    /// Options that take a value, and flags.
    static let withValue: Set<String> = ["--socket"]
    static let flags: Set<String> = ["--json"]

    /// The arguments with the global options found before the command moved
    /// to the end (before a `--`, which ends options), where every command
    /// reads them. Anything else is left as it was.
    static func movedAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if withValue.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else if withValue.contains(name) && argument.contains("=") || flags.contains(argument) {
                leading.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}

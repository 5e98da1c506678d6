import ArgumentParser

/// A mistyped command named as such, with the nearest real one.
///
/// ArgumentParser reads `photolibctl stauts` as an unexpected argument to the
/// root command and prints its usage; a person who typed a verb wrong should
/// read that the verb is unknown and which one they probably meant.
enum UnknownCommand {
    /// One line for `arguments` when a word in the command's place names no
    /// command, or nil when the command path is known (or none is given).
    static func complaint(_ arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for argument in arguments {
            if argument.hasPrefix("-") { return nil }  // options: ArgumentParser's to judge
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty { return nil }  // the rest are the command's own arguments
            if argument == "help" { return nil }
            guard let next = subcommands.first(where: { $0._commandName == argument || $0.configuration.aliases.contains(argument) }) else {
                let names = subcommands.map { $0._commandName }
                let hint = nearest(argument, among: names).map { " Did you mean '\($0)'?" } ?? ""
                let listing = path.joined(separator: " ")
                return "'\(argument)' is not a command of \(listing).\(hint) '\(listing) --help' lists them: \(names.joined(separator: ", "))."
            }
            command = next
            path.append(next._commandName)
        }
        return nil
    }

    /// The name closest to `word` by edit distance, when it is close enough to be a typo.
    static func nearest(_ word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: distance(Array(word), Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let allowed = max(1, min(3, word.count / 3))
        if best.distance <= allowed { return best.name }
        return names.first { $0.hasPrefix(word) && word.count >= 2 }
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

/// Whose turn it is to write the library's rows: one change at a time from its look at the
/// library to its commit.
///
/// A watch batch looks at the library on a thread of its own and the engine answers other
/// changes meanwhile; a change that writes the library's rows itself (an import placing its
/// copy, the start's recovery of imports) must not commit between the batch's look and its
/// transaction, or the batch would judge those rows by a look that predates them (a file
/// placed after its album was listed taken for gone). Those changes wait for the turn;
/// every other change (selections, grants, requests, apps) goes on.
struct LibraryTurn {
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Takes the turn if it is free; otherwise false, and the caller waits (`wait`).
    mutating func take() -> Bool {
        if taken { return false }
        taken = true
        return true
    }

    /// Waits for the turn, handed over by `end` in the order asked.
    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    /// Hands the turn to the next waiting change, or frees it.
    mutating func end() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

import PhotoLibCore

/// Who waits for the person: connections waiting for an answer to a request, connections
/// waiting for a pick, and the desktop prompt that tells the person an app asks.
///
/// Shared with the connections (a connection that closes stops waiting), so every part is Sendable.
struct RequestDesk: Sendable {
    /// Connections waiting for the person's answers.
    let answers = RequestAnswers()
    /// Connections waiting for a pick.
    let picks = PickBoard<PickWaiter>()
    /// Tells the person, on their desktop, that an app asks.
    let prompter: DesktopPrompter
}

/// One headless Chromium at a time across the whole run. Several at once on two loaded cores
/// is when Chromium dies under the driver ("the browser has closed the connection"), and a
/// browser that dies while it shows a pick's sheet is the person closing the page: the page
/// server cancels the pick five seconds later, and no retry can bring it back.
actor BrowserTurns {
    static let shared = BrowserTurns()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

import PhotoLibCore
import PhotoLibProtocol

/// What the daemon does with bytes from a socket, minus the socket: frame them
/// into lines, decode each as a request and its parameters, and parse every
/// escaped name in them. Checks invariants with `precondition`, so a broken
/// one is a crash the fuzzer reports.
///
/// The first byte picks the chunk size the bytes arrive in, so the fuzzer
/// also explores how lines split across reads.
func fuzzOneInput(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let chunk = Int(first % 31) + 1
    let limit = 512
    var framer = LineFramer(limit: limit)
    var offset = 1
    var lines = 0
    while offset < input.count {
        let end = min(offset + chunk, input.count)
        framer.append(input[offset..<end])
        offset = end
        while true {
            do {
                guard let line = try framer.nextLine() else { break }
                precondition(line.count <= limit, "a line over the limit was returned")
                precondition(!line.contains(0x0A), "a line kept its newline")
                lines += 1
                decodeRequest(line)
            } catch {
                // The daemon closes the connection here; start over as a new one.
                precondition(error == .lineTooLong(limit: limit))
                framer = LineFramer(limit: limit)
                break
            }
        }
        precondition(framer.pendingByteCount <= limit + chunk, "the framer kept more than a line's worth")
    }
    precondition(lines <= input.count, "more lines than bytes")
}

private let coder = MessageCoder()

private func decodeRequest(_ line: [UInt8]) {
    guard let head = try? coder.decode(RequestHead.self, from: line) else { return }
    _ = Method(rawValue: head.method)
    if let p = try? coder.decode(Request<AssetsParams>.self, from: line).params {
        p.album.map(checkEscapedPath)
        p.search.map(checkEscapedPath)
    }
    if let p = try? coder.decode(Request<AddAppParams>.self, from: line).params { checkAppID(p.app) }
    if let p = try? coder.decode(Request<AppParams>.self, from: line).params { checkAppID(p.app) }
    if let p = try? coder.decode(Request<AuthorizeParams>.self, from: line).params {
        checkAppID(p.app)
        _ = AuthorizationStatus(spelling: p.status)
    }
    if let p = try? coder.decode(Request<SelectionEditParams>.self, from: line).params {
        checkAppID(p.app)
        for asset in p.assets ?? [] {
            _ = AssetID(asset)
            checkEscapedPath(asset)
        }
        (p.albums ?? []).forEach(checkEscapedPath)
    }
    if let p = try? coder.decode(Request<OptionalAppParams>.self, from: line).params { p.app.map(checkAppID) }
    if let p = try? coder.decode(Request<SubscribeParams>.self, from: line).params { p.app.map(checkAppID) }
}

private func checkAppID(_ text: String) {
    guard let id = AppID(text) else { return }
    // An app ID names a directory in the views root: it must never climb out of it.
    precondition(id.directoryName.bytes != Array("..".utf8) && !id.rawValue.contains("/"), "an app ID could climb: \(text)")
}

/// Escaped names round-trip: unescape(escape(bytes)) == bytes.
private func checkEscapedPath(_ text: String) {
    guard let bytes = EscapedName.unescape(text) else { return }
    precondition(EscapedName.unescape(EscapedName.escape(bytes)) == bytes, "escaping does not round-trip: \(text)")
    if let path = RelativePath(escaped: text) {
        precondition(!path.components.contains { $0.bytes == Array("..".utf8) || $0.bytes == Array(".".utf8) }, "a path keeps . or ..: \(text)")
        precondition(RelativePath(escaped: path.escaped) == path, "a path does not round-trip: \(text)")
    }
}

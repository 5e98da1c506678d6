import PhotoLibCore
import PhotoLibProtocol

extension RuleInfo {
    init(_ rule: CaptureRule) {
        self.init(rule: rule.id, takenFrom: rule.from, takenTo: rule.to, type: rule.mediaType?.rawValue)
    }
}

extension RequestRouter {
    /// `select` with `takenFrom`/`takenTo` makes a rule grant; `deselect` with `rules` or `allRules` removes them.
    func editRules(_ p: SelectionEditParams, adding: Bool, by: EventActor) async throws -> SelectionEditResult {
        let app = try appID(p.app)
        if adding {
            guard let from = p.takenFrom, let to = p.takenTo else {
                throw PhotoLibError.invalidParameter(name: p.takenFrom == nil ? "taken-from" : "taken-to",
                                                     reason: "a rule grant needs both ends: --taken-from DATE --taken-to DATE")
            }
            guard p.forSeconds == nil, p.until == nil else {
                throw PhotoLibError.invalidParameter(name: "for", reason: "a rule grant lasts until it is deselected; --for and --until apply to assets and albums")
            }
            var type: MediaType?
            if let text = p.type {
                guard let known = MediaType(rawValue: text) else {
                    throw PhotoLibError.invalidParameter(name: "type", reason: "'\(text)' is not one of image, video, live")
                }
                type = known
            }
            let rule = try await engine.addRule(app, from: from, to: to, mediaType: type)
            return SelectionEditResult(assets: [], albums: [], rules: [RuleInfo(rule)])
        }
        let removed = try await engine.removeRules(app, ids: p.allRules == true ? nil : p.rules ?? [])
        return SelectionEditResult(assets: [], albums: [], rules: removed.map(RuleInfo.init))
    }
}

import PhotoLibCore
import PhotoLibProtocol

extension RequestRouter {
    /// `select` with `takenFrom`/`takenTo` makes a rule grant; `deselect` with `rules` or `allRules` removes them.
    func editRules(_ p: SelectionEditParams, adding: Bool, by: EventActor) async throws -> SelectionEditResult {
        let app = try appID(p.app)
        if adding {
            let asked = try CaptureRule.requested(from: p.takenFrom, to: p.takenTo, type: p.type, lasting: p.forSeconds != nil || p.until != nil)
            let rule = try await changes.addRule(app, from: asked.from, to: asked.to, mediaType: asked.mediaType)
            return SelectionEditResult(assets: [], albums: [], rules: [RuleInfo(rule)])
        }
        let ids = p.allRules == true ? nil : p.rules ?? []
        let removed = try await changes.removeRules(app, ids: ids)
        return SelectionEditResult(assets: [], albums: [], rules: removed.map(RuleInfo.init))
    }
}

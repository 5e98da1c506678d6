public import PhotoLibCore

extension RuleInfo {
    /// A rule grant as `select` and `deselect` answer it.
    public init(_ rule: CaptureRule) {
        self.init(rule: rule.id, takenFrom: rule.from, takenTo: rule.to, type: rule.mediaType?.rawValue)
    }
}

/// What the person's desktop shows when an app asks: which app, what for, the
/// purpose its owner registered it with, and how to answer. The purpose is the
/// owner's words, never the app's, so an app cannot dress up its question.
public enum RequestNotice {
    public static func summary(_ request: AccessRequest) -> String {
        "\(request.app) asks \(request.kind.described)"
    }

    /// Plain text with `&`, `<`, `>` escaped: notification services may read the body as markup.
    public static func body(_ request: AccessRequest, purpose: String) -> String {
        let why = purpose.isEmpty ? "No purpose was given when the app was added." : "Purpose: \(purpose)"
        let answers = switch request.kind {
        case .authorization(.addOnly): "authorized|denied"
        case .authorization(.readWrite): "authorized|limited ASSET…|denied"
        case .review: "limited ASSET…|cancel"
        case .pick: "ASSET…|cancel"
        }
        return escape("\(why)\nAnswer on your photos page: photolibctl ui --request \(request.id)\nOr in a terminal: photolibctl answer \(request.id) \(answers)")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

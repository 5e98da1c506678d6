/// The programs this executable holds, each run by the name it was started as.
enum Program: Equatable {
    case daemon, page, portal

    /// The program a name (argv[0], a path or a bare name) starts: the page's server and the portal
    /// backend by their own names, the daemon by any other, so a renamed copy of the daemon still runs it.
    static func named(_ argument0: String?) -> Program {
        switch argument0?.split(separator: "/").last {
        case "photolibd-page": .page
        case "photolibd-portal": .portal
        default: .daemon
        }
    }
}

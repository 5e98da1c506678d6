import PhotoLibCore
import Testing

@Suite("Asking and answering (RequestPolicy)")
struct RequestPolicyTests {
    let app = AppID("org.example.Viewer")!

    @Test("a decided status is answered at once; only an undecided one waits", arguments: AuthorizationStatus.allCases)
    func askAuthorization(status: AuthorizationStatus) throws {
        let readWrite = try RequestPolicy.ask(.authorization(.readWrite), app: app, readWrite: status, addOnly: .notDetermined)
        #expect(readWrite == (status == .notDetermined ? .pending : .answeredNow(status)))
        // Each access level is asked about on its own.
        let addOnly = try RequestPolicy.ask(.authorization(.addOnly), app: app, readWrite: .notDetermined, addOnly: status)
        #expect(addOnly == (status == .notDetermined ? .pending : .answeredNow(status)))
    }

    @Test("a review is only for a limited app")
    func askReview() throws {
        #expect(try RequestPolicy.ask(.review, app: app, readWrite: .limited, addOnly: .denied) == .pending)
        for status in AuthorizationStatus.allCases where status != .limited {
            #expect(throws: PhotoLibError.reviewNeedsLimited(app: app, status: status)) {
                try RequestPolicy.ask(.review, app: app, readWrite: status, addOnly: .notDetermined)
            }
        }
    }

    @Test("what each answer does to each kind of request")
    func effects() throws {
        typealias Effect = RequestPolicy.Effect
        let rw = RequestKind.authorization(.readWrite), ao = RequestKind.authorization(.addOnly)
        #expect(try RequestPolicy.effect(of: .authorized, to: rw, namesItems: false) == Effect(authorize: (.readWrite, .authorized), selects: false))
        #expect(try RequestPolicy.effect(of: .limited, to: rw, namesItems: true) == Effect(authorize: (.readWrite, .limited), selects: true))
        #expect(try RequestPolicy.effect(of: .denied, to: rw, namesItems: false) == Effect(authorize: (.readWrite, .denied), selects: false))
        #expect(try RequestPolicy.effect(of: .authorized, to: ao, namesItems: false) == Effect(authorize: (.addOnly, .authorized), selects: false))
        #expect(try RequestPolicy.effect(of: .limited, to: .review, namesItems: true) == Effect(authorize: nil, selects: true))
        #expect(try RequestPolicy.effect(of: .denied, to: .review, namesItems: false) == Effect(authorize: (.readWrite, .denied), selects: false))
        for kind in [rw, ao, .review] {
            #expect(try RequestPolicy.effect(of: .cancel, to: kind, namesItems: false) == Effect(authorize: nil, selects: false))
        }
    }

    @Test("assets go only with limited; add-only cannot be limited")
    func refusedAnswers() {
        #expect(throws: PhotoLibError.answerNotForAddOnly) { try RequestPolicy.effect(of: .limited, to: .authorization(.addOnly), namesItems: false) }
        for answer in [RequestAnswer.authorized, .denied, .cancel] {
            #expect(throws: PhotoLibError.answerItemsNeedLimited(answer: answer.rawValue)) {
                try RequestPolicy.effect(of: answer, to: .authorization(.readWrite), namesItems: true)
            }
        }
    }

    @Test("an authorization change settles the pending requests whose question no longer stands")
    func settling() {
        #expect(RequestPolicy.settledStatus(of: .authorization(.readWrite), readWrite: .notDetermined, addOnly: .authorized) == nil)
        #expect(RequestPolicy.settledStatus(of: .authorization(.readWrite), readWrite: .denied, addOnly: .notDetermined) == .denied)
        #expect(RequestPolicy.settledStatus(of: .authorization(.addOnly), readWrite: .authorized, addOnly: .notDetermined) == nil)
        #expect(RequestPolicy.settledStatus(of: .review, readWrite: .limited, addOnly: .notDetermined) == nil)
        #expect(RequestPolicy.settledStatus(of: .review, readWrite: .authorized, addOnly: .notDetermined) == .authorized)
    }

    @Test("kinds are stored under one key each and read back")
    func storageKeys() {
        let kinds: [RequestKind] = [.authorization(.readWrite), .authorization(.addOnly), .review,
                                    .pick(PickOptions(types: [.image, .live], limit: 3, ordered: true))]
        #expect(Set(kinds.map(\.storageKey)).count == 4)
        for kind in kinds { #expect(RequestKind(storageKey: kind.storageKey, options: kind.storageOptions) == kind) }
        #expect(RequestKind(storageKey: "pick", options: nil) == nil, "a pick without its options is not read back as some other pick")
        #expect(RequestKind(storageKey: "pick", options: "types=sound;limit=1;ordered=0") == nil)
    }

    @Test("the desktop notice names the app, its owner-given purpose and the command, with markup escaped")
    func notice() {
        let request = AccessRequest(id: 7, app: app, kind: .authorization(.readWrite), createdAt: 0)
        #expect(RequestNotice.summary(request) == "org.example.Viewer asks for access to your photos")
        let body = RequestNotice.body(request, purpose: "Prints <b>your</b> photos & more")
        #expect(body.contains("Purpose: Prints &lt;b&gt;your&lt;/b&gt; photos &amp; more"))
        #expect(body.contains("photolibctl answer 7 "))
        #expect(RequestNotice.body(request, purpose: "").contains("No purpose was given"))
    }
}

import Foundation
import Logging
import PhotoLibCore
import PhotoLibProtocol

/// A pick shown on the page is a dialog: when the person closes the last page
/// showing it and opens none again within `grace` (a reload comes back
/// sooner), the picks that were waiting are cancelled with the reason
/// `pageClosed`, so the app that asked (a file dialog through the portal)
/// hears "closed" at once instead of waiting for a sheet nobody can see.
/// Authorization and review requests stay: they wait for the person's answer.
actor ClosedPageWatch {
    static let grace: Duration = .seconds(5)
    private var closings = 0

    /// An event stream (one open page) ended.
    func streamClosed(_ page: PageContext) async {
        guard await page.activity.openStreams == 0 else { return }
        closings += 1
        let closing = closings
        let closedAt = page.clock.now()
        do {
            try await Task.sleep(for: Self.grace)
        } catch {
            return  // the server is stopping
        }
        guard closing == closings, await page.activity.openStreams == 0 else { return }
        do {
            let pending = try await page.daemon.call(.requests, RequestsParams(), returning: RequestsResult.self)
            for request in pending.requests where request.kind == RequestKind.pickName && request.createdAt <= closedAt {
                _ = try await page.daemon.call(.answer, AnswerParams(request: request.request, answer: RequestAnswer.cancel.rawValue,
                                                                     reason: CancelReason.pageClosed.rawValue),
                                               returning: RequestRoutes.Answered.self)
                page.logger.notice("Request \(request.request): the page showing \(request.app)'s pick was closed; the pick is cancelled (pageClosed).")
            }
        } catch {
            page.logger.warning("The page was closed with picks waiting, which could not be cancelled: \(error); they wait in 'photolibctl requests'.")
        }
    }

    /// A page opened: a closing in progress no longer counts.
    func streamOpened() { closings += 1 }
}

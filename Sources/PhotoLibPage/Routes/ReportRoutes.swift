import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoLibCore
import PhotoLibProtocol

/// Report (the App Privacy Report): which photos each app opened through its view, or was handed by a pick, and when.
///
/// The same lines as `photolibctl report`; the page groups them by app and
/// day and shows each photo's thumbnail, so the entries' files join the
/// server's book of paths.
enum ReportRoutes {
    static func add(to router: Router<BasicRequestContext>, _ page: PageContext, book: PathBook) {
        router.get("/api/report") { request, _ in
            let days = min(max(request.uri.queryParameters.get("days", as: Int64.self) ?? 7, 1), 366)
            return try await AppRoutes.answer(page) {
                let since = page.clock.now() - days * 86_400
                let report = try await page.daemon.call(.report, ReportParams(since: since), returning: ReportResult.self)
                await book.remember(report.entries.compactMap { entry in entry.path.map { (entry.asset, $0) } })
                return try PageServer.json(report)
            }
        }
    }
}

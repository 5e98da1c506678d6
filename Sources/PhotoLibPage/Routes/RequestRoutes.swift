import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PhotoLibCore
import PhotoLibProtocol
import ServiceLifecycle

/// Requests, live: what apps ask, answered on the page as `photolibctl answer` would.
///
/// `/api/events` is a server-sent event stream of the daemon's admin events,
/// so a sheet appears the moment an app asks; `/api/requests` lists what is
/// pending when a page opens; an answer is the daemon's `answer` call, so the
/// app hears exactly what it would from `photolibctl answer` (descriptors,
/// for a pick).
enum RequestRoutes {
    struct Answer: Decodable {
        let answer: String
        let assets: [String]?
        let albums: [String]?
        /// A pick's options (`SharingChoice`): absent, the app's settings.
        let location: Bool?
        let captions: Bool?
    }

    /// Whatever the daemon replies to `answer` (a request outcome, or a pick's result): only its state is shown.
    struct Answered: Codable, Sendable {
        let state: String?
    }

    static func add(to router: Router<BasicRequestContext>, _ page: PageContext, feed: EventFeed) {
        let closings = ClosedPageWatch()
        router.get("/api/requests") { _, _ in
            try await AppRoutes.answer(page) {
                let pending = try await page.daemon.call(.requests, RequestsParams(), returning: RequestsResult.self)
                return try PageServer.json(pending)
            }
        }
        router.post("/api/requests/:request/answer") { request, context in
            guard let number = context.parameters.get("request", as: Int64.self) else {
                return PageServer.problem(.badRequest, "A request is named by its number.")
            }
            let answer = try await request.decode(as: Answer.self, context: context)
            return try await AppRoutes.answer(page) {
                let done = try await page.daemon.call(.answer, AnswerParams(request: number, answer: answer.answer, assets: answer.assets,
                                                                            albums: answer.albums, location: answer.location,
                                                                            captions: answer.captions), returning: Answered.self)
                page.logger.notice("Request \(number) answered on the page: \(answer.answer).")
                return try PageServer.json(["state": done.state ?? "answered"])
            }
        }
        router.get("/api/events") { _, _ in
            let lines = feed.listen()
            await page.activity.streamOpened()
            await closings.streamOpened()
            let activity = page.activity
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init { writer in
                defer {
                    Task {
                        await activity.streamClosed()
                        await closings.streamClosed(page)
                    }
                }
                try await writer.write(ByteBuffer(string: ": photolibd-page events\n\n"))
                // At shutdown the stream ends at once: the server stops its listener first and then
                // waits for open requests, and an open page would otherwise hold it up until its next ping.
                for await line in lines.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: line.isEmpty ? ": ping\n\n" : "data: \(line)\n\n"))
                }
                try await writer.finish(nil)
            })
        }
    }
}

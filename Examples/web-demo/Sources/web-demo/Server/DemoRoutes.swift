import Foundation
import Hummingbird
import LeaderboardFixtures
import ListPagination
import WebListRenderer

/// The HTTP endpoints (every `GET` answers `HEAD` too, with the same headers and no body;
/// another method on a known path is answered 405 with `Allow`):
///
/// | endpoint | answer |
/// | --- | --- |
/// | `GET /` | the page |
/// | `GET /?group=tier` | the page of the leaderboard grouped by tier |
/// | `GET /list-client.js` | the browser client module |
/// | `GET /events` | Server-Sent Events: a snapshot message, then one batch message per change, and a comment line when idle |
/// | `GET /events?group=tier` | the same, with sectioned messages: one section per tier |
/// | `GET /snapshot` | the current snapshot message (`?group=tier`: sectioned) |
/// | `GET /snapshot?version=N` | the snapshot message of version N, while it is kept (404 otherwise; `&group=tier`: sectioned) |
/// | `POST /appear?offset=N` | row N is on screen: loads the next page when it is near the end; answers the status |
/// | `POST /retry` | loads the page that failed again (ignored unless a load failed); answers the status |
/// | `GET /status` | version, rows, clients (flat and grouped), pagination state, feed events, frames turned into event bytes |
///
/// A `group` parameter other than `tier` is answered 400.
enum DemoRoutes {
    /// The methods each path answers.
    static let methods: [String: [HTTPRequest.Method]] = [
        "/": [.get, .head], "/list-client.js": [.get, .head], "/events": [.get, .head],
        "/snapshot": [.get, .head], "/appear": [.post], "/retry": [.post], "/status": [.get, .head],
    ]

    /// - Parameters:
    ///   - leaderboard: the list the endpoints serve.
    ///   - heartbeat: how often `/events` writes a comment line while there is no
    ///     message to send. A browser that went away is noticed only when a write to it
    ///     fails (the second after it left), so this bounds how long its queue and
    ///     socket are kept.
    ///   - coalescing: how long an `/events` stream waits after writing messages, so
    ///     that those that come meanwhile go out in one write (see ``EventStream``).
    static func router(for leaderboard: Leaderboard, heartbeat: Duration, coalescing: Duration) -> Router<BasicRequestContext> {
        let router = Router()
        let eventBytes = EventBytes()
        // The grouped hub's frames have the same versions as the flat hub's: their bytes
        // are kept apart.
        let groupedEventBytes = EventBytes()
        router.add(middleware: MethodCheck(methods: methods))
        // GET, and HEAD answered with the GET response's status and headers.
        func get(_ path: RouterPath, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            router.get(path, use: handler)
            router.head(path) { request, context in
                var response = try await handler(request, context)
                let length = response.headers[.contentLength]
                response.body = ResponseBody()  // which sets Content-Length to 0
                response.headers[.contentLength] = length
                return response
            }
        }

        get("/") { request, _ in
            let grouped: Bool
            switch grouping(of: request) {
            case .success(let value): grouped = value
            case .failure(let failure): return failure.response
            }
            let page = grouped ? DemoPage.groupedHTML : DemoPage.html
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }

        get("/list-client.js") { _, _ in
            guard let script = WebListClientScript.source else {
                return plain(.internalServerError, "list-client.js is missing from the WebListRenderer resources")
            }
            return Response(status: .ok, headers: [.contentType: WebListClientScript.mediaType, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: script)))
        }

        get("/events") { request, _ in
            let grouped: Bool
            switch grouping(of: request) {
            case .success(let value): grouped = value
            case .failure(let failure): return failure.response
            }
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
            guard request.method == .get else {
                // The headers of the stream GET sends, which has no length.
                var response = Response(status: .ok, headers: headers)
                response.headers[.contentLength] = nil
                return response
            }
            let subscription = grouped ? leaderboard.groupedHub.subscribe() : leaderboard.hub.subscribe()
            let bytes = grouped ? groupedEventBytes : eventBytes
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(EventBytes.retry)
                try await EventStream.write(subscription, heartbeat: heartbeat, coalescing: coalescing, bytes: bytes) { buffers in
                    try await writer.write(contentsOf: buffers)
                }
                try await writer.finish(nil)
            })
        }

        get("/snapshot") { request, _ in
            let grouped: Bool
            switch grouping(of: request) {
            case .success(let value): grouped = value
            case .failure(let failure): return failure.response
            }
            guard let text = request.uri.queryParameters["version"].map(String.init) else {
                let frame = grouped ? leaderboard.groupedHub.snapshotFrame() : leaderboard.hub.snapshotFrame()
                guard let frame else { return error(.serviceUnavailable, "the list is not ready yet") }
                return json(frame.json)
            }
            guard let version = Int(text) else { return error(.badRequest, "version must be an integer, got \"\(text)\"") }
            switch leaderboard.history.snapshot(version: version) {
            case .found(let snapshot):
                let message = grouped ? TierSections.format.snapshotMessage(for: snapshot) : PlayerRow.format.snapshotMessage(for: snapshot.rows)
                return json(WebListFrame(message).json)
            case .notYet(let newest):
                return error(.notFound, "version \(version) does not exist yet; the newest is \(newest.map(String.init) ?? "none")")
            case .gone(let oldest):
                return error(.notFound, "version \(version) is no longer kept; the oldest kept is \(oldest)")
            }
        }

        router.post("/appear") { request, _ in
            guard let text = request.uri.queryParameters["offset"].map(String.init), let offset = Int(text), offset >= 0 else {
                return error(.badRequest, "offset must be a row offset (an integer ≥ 0)")
            }
            leaderboard.paginator.itemDidAppear(at: offset)
            return json(status(of: leaderboard, eventBytes: eventBytes))
        }

        router.post("/retry") { _, _ in
            leaderboard.paginator.retry()
            return json(status(of: leaderboard, eventBytes: eventBytes))
        }

        get("/status") { _, _ in
            json(status(of: leaderboard, eventBytes: eventBytes))
        }

        return router
    }

    /// `{"version":…,"rows":…,"clients":…,"groupedClients":…,"resets":…,"pagination":"idle","loadingIndicator":false,"loadedPages":…,"feedEvents":…,"eventFrames":…}`
    ///
    /// `eventFrames` counts the frames turned into event bytes: once per frame, however
    /// many streams write it.
    static func status(of leaderboard: Leaderboard, eventBytes: EventBytes) -> String {
        let pagination = leaderboard.paginator.status
        let statistics = leaderboard.hub.statistics
        let state: String
        switch pagination.state {
        case .idle: state = "idle"
        case .loading: state = "loading"
        case .failed: state = "failed"
        case .exhausted: state = "exhausted"
        }
        return """
            {"version":\(leaderboard.hub.version ?? 0),"rows":\(leaderboard.board.count),"clients":\(statistics.clients),\
            "groupedClients":\(leaderboard.groupedHub.statistics.clients),\
            "resets":\(statistics.resets),"pagination":"\(state)","loadingIndicator":\(pagination.isShowingLoadingIndicator),\
            "loadedPages":\(pagination.loadedPages),"feedEvents":\(leaderboard.feedEvents),\
            "eventFrames":\(eventBytes.made)}
            """
    }

    /// Whether `request` asks for the grouped list (`group=tier`), or the 400 answer to
    /// a `group` it does not know.
    static func grouping(of request: Request) -> Result<Bool, GroupingError> {
        guard let group = request.uri.queryParameters["group"].map(String.init) else { return .success(false) }
        guard group == "tier" else {
            return .failure(GroupingError(response: error(.badRequest, "group must be \"tier\", got \"\(group)\"")))
        }
        return .success(true)
    }

    /// The answer to a request for a grouping the demo does not have.
    struct GroupingError: Error {
        let response: Response
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        struct Body: Encodable { let error: String, status: Int }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(Body(error: message, status: status.code))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// Answers 405, with `Allow`, a request whose path is known but whose method is not.
struct MethodCheck<Context: RequestContext>: RouterMiddleware {
    let methods: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router answers a path with a trailing slash as the path without it.
        var path = Substring(request.uri.path)
        if path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let allowed = methods[String(path)], !allowed.contains(request.method) else {
            return try await next(request, context)
        }
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return Response(status: .methodNotAllowed, headers: [.allow: allow, .contentType: "text/plain; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: "\(request.method) is not allowed here; use \(allow)\n")))
    }
}

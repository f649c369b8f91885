import Foundation
import Hummingbird
import LeaderboardFixtures
import ListPagination
import WebListRenderer

/// The HTTP endpoints (every `GET` answers `HEAD` too, with the same headers and no body;
/// another method on a known path is answered 405 with `Allow`).
///
/// Each browser page has its own window on the leaderboard (``LeaderboardWindow``),
/// opened by its event stream. The server names it with a token (``WindowToken``: 128
/// random bits, 22 base64url characters) sent in the stream's `window` event; the page
/// passes it as `window=TOKEN` to `/snapshot`, `/appear`, `/retry` and `/status`. The
/// token is the window's only name and is never listed: whoever holds it reads and steers
/// the window. When the stream ends the window is kept for `--resume-grace` (following
/// the feed), and `/events?resume=TOKEN` gives it a new stream; then it is released.
///
/// | endpoint | answer |
/// | --- | --- |
/// | `GET /` | the page |
/// | `GET /?group=tier` | the page of the leaderboard grouped by tier |
/// | `GET /list-client.js` | the browser client module |
/// | `GET /events` | opens a new window and streams it as Server-Sent Events: a `window` event with its token, a snapshot message, then one batch message per change, and a comment line when idle. 503 with `Retry-After` when `--max-windows` are held, 429 when `--max-windows-per-client` are held for this peer address |
/// | `GET /events?group=tier` | the same, with sectioned messages: one section per tier |
/// | `GET /events?resume=TOKEN` | a new stream for the window whose stream ended within `--resume-grace`, starting with a snapshot; 409 while its stream is live (which is left alone), 404 when no such window is held |
/// | `GET /snapshot?window=TOKEN` | the window's current snapshot message (sectioned for a grouped window) |
/// | `GET /snapshot?window=TOKEN&version=N` | the window's snapshot message of version N, while it is kept (404 otherwise) |
/// | `POST /appear?window=TOKEN&offset=N` | row N of the window is on screen: loads the next page when it is near the end, the previous page when it is near the start. `offset=A,B` reports two rows, in that order (the last one counts as the visible row, which trims keep). Answers the window's status |
/// | `POST /retry?window=TOKEN` | loads the page that failed again (ignored unless a load failed); answers the window's status |
/// | `GET /status?window=TOKEN` | the window's status: version, rows, the rank of its first row, pagination both ways |
/// | `GET /status` | counts only, never a token: windows held and streaming, opened, released, resumed and refused, alive (not yet freed), rows, roster size, feed events, frames turned into event bytes, resets, the caps |
///
/// A token that names no window held is answered 404; a malformed one, or a `group`
/// other than `tier`, 400. `/snapshot`, `/appear` and `/retry` need a window. `/events`
/// refuses a `window=` the client picked (400; 409 if it names a window with a live
/// stream, which is left alone).
enum DemoRoutes {
    /// The methods each path answers.
    static let methods: [String: [HTTPRequest.Method]] = [
        "/": [.get, .head], "/list-client.js": [.get, .head], "/events": [.get, .head],
        "/snapshot": [.get, .head], "/appear": [.post], "/retry": [.post], "/status": [.get, .head],
    ]

    /// - Parameters:
    ///   - leaderboard: the roster and windows the endpoints serve.
    ///   - heartbeat: how often `/events` writes a comment line while there is no
    ///     message to send. A browser that went away is noticed only when a write to it
    ///     fails (the second after it left), so this bounds how long its window, queue
    ///     and socket are kept.
    ///   - coalescing: how long an `/events` stream waits after writing messages, so
    ///     that those that come meanwhile go out in one write (see ``EventStream``).
    static func router(for leaderboard: Leaderboard, heartbeat: Duration, coalescing: Duration) -> Router<DemoRequestContext> {
        let router = Router(context: DemoRequestContext.self)
        router.add(middleware: MethodCheck(methods: methods))
        // GET, and HEAD answered with the GET response's status and headers.
        func get(_ path: RouterPath, _ handler: @escaping @Sendable (Request, DemoRequestContext) async throws -> Response) {
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

        get("/events") { request, context in
            let grouped: Bool
            switch grouping(of: request) {
            case .success(let value): grouped = value
            case .failure(let failure): return failure.response
            }
            let named: String?, resumed: String?
            switch (token(of: request, parameter: "window"), token(of: request, parameter: "resume")) {
            case (.failure(let failure), _), (_, .failure(let failure)): return failure.response
            case (.success(let window), .success(let resume)): (named, resumed) = (window, resume)
            }
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
            guard request.method == .get else {
                // The headers of the stream GET sends, which has no length; no window.
                var response = Response(status: .ok, headers: headers)
                response.headers[.contentLength] = nil
                return response
            }
            // The server names windows: a name the client picked opens nothing, and never
            // touches the window it may name.
            if let named {
                guard !leaderboard.isStreaming(named) else {
                    return error(.conflict, "that window has a live stream; it cannot be opened again")
                }
                return error(.badRequest, "the server names windows: open /events without window=, or /events?resume=TOKEN to reopen a window whose stream ended")
            }
            let window: LeaderboardWindow
            if let resumed {
                switch leaderboard.resume(resumed) {
                case .resumed(let value): window = value
                case .live: return error(.conflict, "that window has a live stream; it cannot be opened again")
                case .unknown: return error(.notFound, "no window to resume: its stream ended more than \(leaderboard.limits.resumeGrace) ago, or it never existed")
                case .stopped: return error(.serviceUnavailable, "the server is stopping")
                }
            } else {
                switch leaderboard.open(grouped: grouped, client: context.client) {
                case .success(let value): window = value
                case .failure(.full):
                    return error(.serviceUnavailable, "the server holds its most windows (\(leaderboard.limits.maxWindows)); try again later",
                                 headers: [.retryAfter: retryAfter(leaderboard)])
                case .failure(.clientFull):
                    return error(.tooManyRequests, "this address holds its most windows (\(leaderboard.limits.maxWindowsPerClient)); close some or try again later",
                                 headers: [.retryAfter: retryAfter(leaderboard)])
                case .failure(.stopped):
                    return error(.serviceUnavailable, "the server is stopping")
                }
            }
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                defer { leaderboard.streamEnded(window) }
                // A browser that closes its connection ends the stream at once, not at the
                // next write, so that its window can be resumed right away.
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await writer.write(EventBytes.opening(window: window.id))
                    guard let source = await window.subscribe() else { return }
                    try await EventStream.write(from: source, then: window.source(after:), heartbeat: heartbeat, coalescing: coalescing) { buffers in
                        try await writer.write(contentsOf: buffers)
                    }
                }
                try await writer.finish(nil)
            })
        }

        get("/snapshot") { request, _ in
            let window: LeaderboardWindow
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let value): window = value
            case .failure(let failure): return failure.response
            }
            guard let text = request.uri.queryParameters["version"].map(String.init) else {
                guard let frame = window.view.snapshotFrame() else { return error(.serviceUnavailable, "the window's first page has not arrived yet") }
                return json(frame.json)
            }
            guard let version = Int(text) else { return error(.badRequest, "version must be an integer, got \"\(text)\"") }
            switch window.snapshot(version: version) {
            case .found(let message):
                return json(WebListFrame(message).json)
            case .notYet(let newest):
                return error(.notFound, "version \(version) does not exist yet; the newest is \(newest.map(String.init) ?? "none")")
            case .gone(let oldest):
                return error(.notFound, "version \(version) is no longer kept; the oldest kept is \(oldest)")
            }
        }

        router.post("/appear") { request, _ in
            let window: LeaderboardWindow
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let value): window = value
            case .failure(let failure): return failure.response
            }
            let texts = request.uri.queryParameters.getAll("offset").flatMap { $0.split(separator: ",") }
            let offsets = texts.compactMap { Int($0) }.filter { $0 >= 0 }
            guard !offsets.isEmpty, offsets.count == texts.count, offsets.count <= 2 else {
                return error(.badRequest, "offset must be one or two row offsets (integers ≥ 0), as offset=N or offset=A,B")
            }
            window.appear(at: offsets)
            return json(await status(of: window, in: leaderboard))
        }

        router.post("/retry") { request, _ in
            let window: LeaderboardWindow
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let value): window = value
            case .failure(let failure): return failure.response
            }
            window.retry()
            return json(await status(of: window, in: leaderboard))
        }

        get("/status") { request, _ in
            guard request.uri.queryParameters["window"] != nil else { return json(status(of: leaderboard)) }
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let window): return json(await status(of: window, in: leaderboard))
            case .failure(let failure): return failure.response
            }
        }

        return router
    }

    /// A pagination state as `/status` writes it.
    static func name(of state: PaginationState) -> String {
        switch state {
        case .idle: "idle"
        case .loading: "loading"
        case .failed: "failed"
        case .exhausted: "exhausted"
        }
    }

    /// One window's status:
    /// `{"window":"ID","grouped":false,"shared":true,"version":…,"rows":…,"firstRank":…,"firstId":"…","pagination":"idle","prepend":"exhausted","loadingIndicator":false,"loadedPages":…,"maxLoadedRows":200,"pageSize":50,"prefetchDistance":20,"feedEvents":…}`
    ///
    /// `shared` tells whether the window shows the shared view of the top page (its
    /// pagination is then that view's); `pagination` is the state at the end (loading
    /// the next page), `prepend` at the start; `firstRank` is the rank on the whole roster of the window's first row (1
    /// at the top; `null` while the window is empty), which the page numbers its rows
    /// from.
    static func status(of window: LeaderboardWindow, in leaderboard: Leaderboard) async -> String {
        let view = window.view
        let pagination = view.paginator.status
        let rows = view.rows.snapshot
        var firstRank = "null"
        if let first = rows.first, let rank = try? await leaderboard.store.rank(of: first) { firstRank = String(rank) }
        return """
            {"window":"\(window.id)","grouped":\(window.isGrouped),"shared":\(window.isShared),"version":\(view.version ?? 0),"rows":\(rows.count),\
            "firstRank":\(firstRank),"firstId":\(rows.first.map { "\"\($0.id)\"" } ?? "null"),"pagination":"\(name(of: pagination.append))","prepend":"\(name(of: pagination.prepend))",\
            "loadingIndicator":\(pagination.isShowingLoadingIndicator),"loadedPages":\(pagination.loadedPages),\
            "maxLoadedRows":\(leaderboard.sizes.maxLoadedRows),"pageSize":\(leaderboard.sizes.pageSize),\
            "prefetchDistance":\(leaderboard.sizes.prefetchDistance),"feedEvents":\(leaderboard.feedEvents)}
            """
    }

    /// The server's status, in counts only (no token):
    /// `{"windows":…,"streams":…,"groupedWindows":…,"sharedWindows":…,"views":…,"windowsOpened":…,"windowsReleased":…,"windowsResumed":…,"windowsAlive":…,"refusedFull":…,"refusedPerClient":…,"refusedLive":…,"maxWindows":…,"maxWindowsPerClient":…,"resumeGraceMs":…,"rowsLoaded":…,"maxRowsInWindow":…,"emptyWindows":…,"maxLoadedRows":200,"pageSize":50,"players":…,"feedEvents":…,"eventFrames":…,"resets":…}`
    ///
    /// `windows` counts the windows held (`streams` of them with a live stream, the
    /// others within their resume grace), `sharedWindows` those that show the shared
    /// view of the top page, `views` the lists the feed reaches (the two shared views and
    /// one per window that has its own); `windowsAlive` counts window objects not yet
    /// freed: once windows are released it comes back to `windows`. `refusedFull`,
    /// `refusedPerClient` and `refusedLive` count the `/events` answered 503, 429 and
    /// 409. `emptyWindows` counts the windows whose first page has not arrived.
    /// `eventFrames` counts the frames every window turned into event bytes;
    /// `resets`, the streams of every view reset to a snapshot after falling behind.
    static func status(of leaderboard: Leaderboard) -> String {
        let windows = leaderboard.openWindows
        let counts = leaderboard.counts
        let limits = leaderboard.limits
        var rowsLoaded = 0, maxRows = 0, empty = 0, grouped = 0, shared = 0
        for window in windows {
            let rows = window.view.rows.count
            rowsLoaded += rows
            maxRows = max(maxRows, rows)
            if rows == 0 { empty += 1 }
            if window.isGrouped { grouped += 1 }
            if window.isShared { shared += 1 }
        }
        let views = leaderboard.views
        let resets = views.reduce(0) { $0 + $1.resets }
        return """
            {"windows":\(counts.held),"streams":\(counts.streaming),"groupedWindows":\(grouped),"sharedWindows":\(shared),"views":\(views.count),"windowsOpened":\(counts.since.opened),\
            "windowsReleased":\(counts.since.released),"windowsResumed":\(counts.since.resumed),\
            "windowsAlive":\(LeaderboardWindow.alive.load(ordering: .relaxed)),"refusedFull":\(counts.since.refusedFull),\
            "refusedPerClient":\(counts.since.refusedClient),"refusedLive":\(counts.since.refusedLive),"maxWindows":\(limits.maxWindows),\
            "maxWindowsPerClient":\(limits.maxWindowsPerClient),"resumeGraceMs":\(Int(limits.resumeGrace / .milliseconds(1))),\
            "rowsLoaded":\(rowsLoaded),"maxRowsInWindow":\(maxRows),"emptyWindows":\(empty),\
            "maxLoadedRows":\(leaderboard.sizes.maxLoadedRows),"pageSize":\(leaderboard.sizes.pageSize),"players":\(leaderboard.store.playerCount),\
            "feedEvents":\(leaderboard.feedEvents),"eventFrames":\(counts.frames),"resets":\(resets)}
            """
    }

    /// `Retry-After` for a refused `/events`, in seconds: the resume grace (a window
    /// whose stream ended is released within it), from 1 to 60.
    static func retryAfter(_ leaderboard: Leaderboard) -> String {
        let grace = leaderboard.limits.resumeGrace
        let seconds = Int((grace / .seconds(1)).rounded(.up))
        return String(min(60, max(1, seconds)))
    }

    /// The token in `parameter` of a request, `nil` when there is none, or the 400
    /// answer to one that cannot be a token.
    static func token(of request: Request, parameter: String) -> Result<String?, RequestError> {
        guard let token = request.uri.queryParameters[Substring(parameter)].map(String.init) else { return .success(nil) }
        let allowed = token.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard allowed, (1 ... 64).contains(token.utf8.count) else {
            return .failure(RequestError(response: error(.badRequest, "\(parameter) must be a window token: 1–64 letters, digits, - or _")))
        }
        return .success(token)
    }

    /// The window a request's token names, or the answer when it names none (400) or
    /// one that is not held (404).
    static func requiredWindow(of request: Request, in leaderboard: Leaderboard) -> Result<LeaderboardWindow, RequestError> {
        switch token(of: request, parameter: "window") {
        case .failure(let failure):
            return .failure(failure)
        case .success(nil):
            return .failure(RequestError(response: error(.badRequest, "window is required: the token of the page's /events stream")))
        case .success(let token?):
            guard let window = leaderboard.window(token) else {
                return .failure(RequestError(response: error(.notFound, "no such window: its stream ended and was not resumed in time, or it never existed")))
            }
            return .success(window)
        }
    }

    /// Whether `request` asks for the grouped list (`group=tier`), or the 400 answer to
    /// a `group` it does not know.
    static func grouping(of request: Request) -> Result<Bool, RequestError> {
        guard let group = request.uri.queryParameters["group"].map(String.init) else { return .success(false) }
        guard group == "tier" else {
            return .failure(RequestError(response: error(.badRequest, "group must be \"tier\", got \"\(group)\"")))
        }
        return .success(true)
    }

    /// The answer to a request with a parameter the demo cannot serve.
    struct RequestError: Error {
        let response: Response
    }

    static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        struct Body: Encodable { let error: String, status: Int }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = (try? encoder.encode(Body(error: message, status: status.code))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
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

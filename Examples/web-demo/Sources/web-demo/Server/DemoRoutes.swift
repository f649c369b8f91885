import Foundation
import Hummingbird
import LeaderboardFixtures
import ListPagination
import WebListRenderer

/// The HTTP endpoints (every `GET` answers `HEAD` too, with the same headers and no body;
/// another method on a known path is answered 405 with `Allow`).
///
/// Each browser page has its own window on the leaderboard (``LeaderboardWindow``),
/// opened by its event stream and released when that stream ends. The page names it
/// with `window=ID` (1–64 letters, digits, `-` or `_`; the page makes a random one),
/// which it passes to `/events` and then to `/snapshot`, `/appear`, `/retry` and
/// `/status`:
///
/// | endpoint | answer |
/// | --- | --- |
/// | `GET /` | the page |
/// | `GET /?group=tier` | the page of the leaderboard grouped by tier |
/// | `GET /list-client.js` | the browser client module |
/// | `GET /events?window=ID` | opens window ID (closing an older window of that id) and streams it as Server-Sent Events: a `window` event naming it, a snapshot message, then one batch message per change, and a comment line when idle; the window is released when the stream ends. Without `window`, the server names it (`w1`, `w2`, …) in the `window` event |
/// | `GET /events?window=ID&group=tier` | the same, with sectioned messages: one section per tier |
/// | `GET /snapshot?window=ID` | the window's current snapshot message (`&group=tier`: sectioned) |
/// | `GET /snapshot?window=ID&version=N` | the window's snapshot message of version N, while it is kept (404 otherwise) |
/// | `POST /appear?window=ID&offset=N` | row N of the window is on screen: loads the next page when it is near the end, the previous page when it is near the start. `offset=A,B` reports two rows, in that order (the last one counts as the visible row, which trims keep). Answers the window's status |
/// | `POST /retry?window=ID` | loads the page that failed again (ignored unless a load failed); answers the window's status |
/// | `GET /status?window=ID` | the window's status: version, rows, the rank of its first row, pagination both ways |
/// | `GET /status` | windows open (flat and grouped), opened and released, alive (not yet freed), rows per window, roster size, feed events, frames turned into event bytes, resets |
///
/// An unknown window is answered 404; a malformed one, or a `group` other than `tier`,
/// 400. `/snapshot`, `/appear` and `/retry` need a window.
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
    static func router(for leaderboard: Leaderboard, heartbeat: Duration, coalescing: Duration) -> Router<BasicRequestContext> {
        let router = Router()
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
            let id: String?
            switch windowID(of: request) {
            case .success(let value): id = value
            case .failure(let failure): return failure.response
            }
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
            guard request.method == .get else {
                // The headers of the stream GET sends, which has no length; no window.
                var response = Response(status: .ok, headers: headers)
                response.headers[.contentLength] = nil
                return response
            }
            guard let window = leaderboard.open(id: id, grouped: grouped) else {
                return error(.serviceUnavailable, "the server is stopping")
            }
            let subscription = window.subscribe()
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                defer { leaderboard.release(window) }
                try await writer.write(EventBytes.opening(window: window.id))
                try await EventStream.write(subscription, heartbeat: heartbeat, coalescing: coalescing, bytes: window.eventBytes) { buffers in
                    try await writer.write(contentsOf: buffers)
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
                guard let frame = window.snapshotFrame() else { return error(.serviceUnavailable, "the window's first page has not arrived yet") }
                return json(frame.json)
            }
            guard let version = Int(text) else { return error(.badRequest, "version must be an integer, got \"\(text)\"") }
            switch window.history.snapshot(version: version) {
            case .found(let snapshot):
                return json(WebListFrame(window.snapshotMessage(snapshot)).json)
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
            for offset in offsets { window.paginator.itemDidAppear(at: offset) }
            return json(status(of: window, in: leaderboard))
        }

        router.post("/retry") { request, _ in
            let window: LeaderboardWindow
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let value): window = value
            case .failure(let failure): return failure.response
            }
            window.paginator.retry()
            return json(status(of: window, in: leaderboard))
        }

        get("/status") { request, _ in
            guard request.uri.queryParameters["window"] != nil else { return json(status(of: leaderboard)) }
            switch requiredWindow(of: request, in: leaderboard) {
            case .success(let window): return json(status(of: window, in: leaderboard))
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
    /// `{"window":"ID","grouped":false,"version":…,"rows":…,"firstRank":…,"firstId":"…","pagination":"idle","prepend":"exhausted","loadingIndicator":false,"loadedPages":…,"maxLoadedRows":200,"pageSize":50,"prefetchDistance":20,"feedEvents":…}`
    ///
    /// `pagination` is the state at the end (loading the next page), `prepend` at the
    /// start; `firstRank` is the rank on the whole roster of the window's first row (1
    /// at the top; `null` while the window is empty), which the page numbers its rows
    /// from.
    static func status(of window: LeaderboardWindow, in leaderboard: Leaderboard) -> String {
        let pagination = window.paginator.status
        let rows = window.rows.snapshot
        let firstRank = rows.first.map { String(leaderboard.roster.rank(of: $0)) } ?? "null"
        return """
            {"window":"\(window.id)","grouped":\(window.isGrouped),"version":\(window.version ?? 0),"rows":\(rows.count),\
            "firstRank":\(firstRank),"firstId":\(rows.first.map { "\"\($0.id)\"" } ?? "null"),"pagination":"\(name(of: pagination.append))","prepend":"\(name(of: pagination.prepend))",\
            "loadingIndicator":\(pagination.isShowingLoadingIndicator),"loadedPages":\(pagination.loadedPages),\
            "maxLoadedRows":\(leaderboard.sizes.maxLoadedRows),"pageSize":\(leaderboard.sizes.pageSize),\
            "prefetchDistance":\(leaderboard.sizes.prefetchDistance),"feedEvents":\(leaderboard.feedEvents)}
            """
    }

    /// The server's status:
    /// `{"windows":…,"groupedWindows":…,"windowsOpened":…,"windowsReleased":…,"windowsAlive":…,"rowsLoaded":…,"maxRowsInWindow":…,"maxLoadedRows":200,"pageSize":50,"players":…,"feedEvents":…,"eventFrames":…,"resets":…,"windowList":[{"id":"…","grouped":false,"version":…,"rows":…}, …]}`
    ///
    /// `windowsAlive` counts window objects not yet freed: once streams close it comes
    /// back to `windows`. `eventFrames` counts the frames every window turned into
    /// event bytes; `resets`, the streams of open windows reset to a snapshot after
    /// falling behind.
    static func status(of leaderboard: Leaderboard) -> String {
        let windows = leaderboard.openWindows
        let counts = leaderboard.counts
        var list: [String] = []
        list.reserveCapacity(windows.count)
        var rowsLoaded = 0, maxRows = 0, grouped = 0, resets = 0
        for window in windows {
            let rows = window.rows.count
            rowsLoaded += rows
            maxRows = max(maxRows, rows)
            if window.isGrouped { grouped += 1 }
            resets += window.resets
            list.append(#"{"id":"\#(window.id)","grouped":\#(window.isGrouped),"version":\#(window.version ?? 0),"rows":\#(rows)}"#)
        }
        return """
            {"windows":\(windows.count),"groupedWindows":\(grouped),"windowsOpened":\(counts.opened),"windowsReleased":\(counts.released),\
            "windowsAlive":\(LeaderboardWindow.alive.load(ordering: .relaxed)),"rowsLoaded":\(rowsLoaded),"maxRowsInWindow":\(maxRows),\
            "maxLoadedRows":\(leaderboard.sizes.maxLoadedRows),"pageSize":\(leaderboard.sizes.pageSize),"players":\(leaderboard.roster.count),\
            "feedEvents":\(leaderboard.feedEvents),"eventFrames":\(counts.frames),"resets":\(resets),"windowList":[\(list.joined(separator: ","))]}
            """
    }

    /// The `window` a request names, `nil` when it names none, or the 400 answer to a
    /// malformed one.
    static func windowID(of request: Request) -> Result<String?, RequestError> {
        guard let id = request.uri.queryParameters["window"].map(String.init) else { return .success(nil) }
        let allowed = id.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard allowed, (1 ... 64).contains(id.utf8.count) else {
            return .failure(RequestError(response: error(.badRequest, "window must be 1–64 letters, digits, - or _")))
        }
        return .success(id)
    }

    /// The open window a request names, or the answer when it names none (400) or one
    /// that is not open (404).
    static func requiredWindow(of request: Request, in leaderboard: Leaderboard) -> Result<LeaderboardWindow, RequestError> {
        switch windowID(of: request) {
        case .failure(let failure):
            return .failure(failure)
        case .success(nil):
            return .failure(RequestError(response: error(.badRequest, "window is required: the id the page's /events stream was opened with")))
        case .success(let id?):
            guard let window = leaderboard.window(id) else {
                return .failure(RequestError(response: error(.notFound, "no window \(id) is open: its event stream has ended")))
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

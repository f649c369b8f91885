import Foundation
import Hummingbird
import LeaderboardFixtures
import ListPagination
import WebListRenderer

/// The HTTP endpoints:
///
/// | endpoint | answer |
/// | --- | --- |
/// | `GET /` | the page |
/// | `GET /list-client.js` | the browser client module |
/// | `GET /events` | Server-Sent Events: a snapshot message, then one batch message per change |
/// | `GET /snapshot` | the current snapshot message |
/// | `GET /snapshot?version=N` | the snapshot message of version N, while it is kept (404 otherwise) |
/// | `POST /appear?offset=N` | row N is on screen: loads the next page when it is near the end; answers the status |
/// | `GET /status` | version, rows, clients, pagination state, feed events |
enum DemoRoutes {
    static func router(for leaderboard: Leaderboard) -> Router<BasicRequestContext> {
        let router = Router()

        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: DemoPage.html)))
        }

        router.get("/list-client.js") { _, _ in
            guard let script = WebListClientScript.source else {
                return plain(.internalServerError, "list-client.js is missing from the WebListRenderer resources")
            }
            return Response(status: .ok, headers: [.contentType: WebListClientScript.mediaType, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: script)))
        }

        router.get("/events") { _, _ in
            let subscription = leaderboard.hub.subscribe()
            let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // Reconnect after a second if the stream breaks.
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                for await frame in subscription {
                    try await writer.write(ByteBuffer(string: frame.serverSentEvent))
                }
                try await writer.finish(nil)
            })
        }

        router.get("/snapshot") { request, _ in
            guard let text = request.uri.queryParameters["version"].map(String.init) else {
                guard let frame = leaderboard.hub.snapshotFrame() else { return error(.serviceUnavailable, "the list is not ready yet") }
                return json(frame.json)
            }
            guard let version = Int(text) else { return error(.badRequest, "version must be an integer, got \"\(text)\"") }
            switch leaderboard.history.snapshot(version: version) {
            case .found(let snapshot):
                return json(WebListFrame(PlayerRow.format.snapshotMessage(for: snapshot)).json)
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
            return json(status(of: leaderboard))
        }

        router.get("/status") { _, _ in
            json(status(of: leaderboard))
        }

        return router
    }

    /// `{"version":…,"rows":…,"clients":…,"resets":…,"pagination":"idle","loadingIndicator":false,"loadedPages":…,"feedEvents":…}`
    static func status(of leaderboard: Leaderboard) -> String {
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
            "resets":\(statistics.resets),"pagination":"\(state)","loadingIndicator":\(pagination.isShowingLoadingIndicator),\
            "loadedPages":\(pagination.loadedPages),"feedEvents":\(leaderboard.feedEvents)}
            """
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

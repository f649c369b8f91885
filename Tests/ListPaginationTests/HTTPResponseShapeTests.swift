import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LeaderboardFixtures
import ListPagination
import Testing

/// `HTTPPageLoader` against the fixture server's other response shapes, next-page URLs,
/// error bodies and totals.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HTTPResponseShapeTests {
    typealias Loader = HTTPPageLoader<Player>

    static var serverOrder: [Player] { HTTPPageLoaderTests.serverOrder }

    /// Where the `nested` shape keeps things.
    static let nested = Loader.ResponseKeys(
        items: "result.items",
        nextCursor: "meta.paging.next",
        totalItems: "meta.paging.total",
        totalPages: "meta.paging.pages"
    )

    /// The error a load throws, or `nil` when it succeeds.
    static func error(loading cursor: HTTPPageCursor? = nil, with loader: Loader) async -> PaginationError? {
        do {
            _ = try await loader.loadPage(at: cursor)
            return nil
        } catch {
            return error as? PaginationError
        }
    }

    // MARK: Response keys

    @Test(arguments: [Loader.Mode.pageNumber, .offset, .cursor])
    func keyPathsFindTheItemsTheNextPageAndTheTotals(mode: Loader.Mode) async throws {
        try await withFixtureServer { server in
            try await server.control("shape=nested")
            let loader = Loader(url: server.url(HTTPPageLoaderTests.endpoint(for: mode)), mode: mode, pageSize: 500, responseKeys: Self.nested)
            let paginator = Paginator(loader: loader, retryPolicy: .none)
            let status = await HTTPPageLoaderTests.walk(paginator)
            #expect(status.state == .exhausted)
            #expect(status.loadedPages == 6)
            #expect(status.totalItems == 3_000)
            #expect(status.totalPages == (mode == .pageNumber ? 6 : nil))
            #expect(Array(await paginator.dataSource.flush()) == Self.serverOrder)
        }
    }

    @Test func aMisspeltPathFailsForTheMemberTheModePagesByAndReadsNothingForTheOthers() async throws {
        try await withFixtureServer { server in
            try await server.control("shape=nested")
            var keys = Self.nested
            keys.nextCursor = "meta.pagin.next"
            let misspelt = Loader(url: server.url("cursor"), mode: .cursor, responseKeys: keys)
            let error = await Self.error(with: misspelt)
            guard case .decoding(let url, let path, _)? = error else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(url == misspelt.requestURL(for: nil))
            #expect(path == "meta.pagin")
            keys = Self.nested
            keys.totalItems = "meta.pagin.total"
            let page = try await Loader(url: server.url("cursor"), mode: .cursor, responseKeys: keys).loadPage(at: nil)
            #expect(page.items == Array(Self.serverOrder[0..<50]))
            #expect(page.totalItems == nil)
            #expect(page.nextCursor != nil)
            // The default keys do not fit this shape: the items are not where they look.
            let defaults = Loader(url: server.url("cursor"), mode: .cursor)
            guard case .decoding(_, "data", let description)? = await Self.error(with: defaults) else {
                Issue.record("the default keys must not find items in the nested shape")
                return
            }
            #expect(description.contains("line 1, column 1"), "\(description)")
        }
    }

    // MARK: Next-page URLs

    @Test(arguments: ["pages", "offset", "cursor"])
    func nextURLModeFollowsTheURLInTheBody(endpoint: String) async throws {
        try await withFixtureServer { server in
            try await server.control("shape=next-url")
            let keys = Loader.ResponseKeys(items: "results", totalItems: "count")
            let loader = Loader(url: server.url(endpoint), mode: .nextURL, pageSize: 700, responseKeys: keys)
            #expect(loader.requestURL(for: nil).absoluteString == server.url(endpoint).absoluteString + "?limit=700")
            let first = try await loader.loadPage(at: nil)
            guard case .url(let next)? = first.nextCursor else {
                Issue.record("expected a next URL, got \(String(describing: first.nextCursor))")
                return
            }
            #expect(next.host == "127.0.0.1" && next.port == server.port && next.path == "/\(endpoint)")
            #expect(loader.requestURL(for: .url(next)) == next)
            #expect(first.totalItems == 3_000)

            let paginator = Paginator(loader: loader, retryPolicy: .none)
            let status = await HTTPPageLoaderTests.walk(paginator)
            #expect(status.state == .exhausted)
            #expect(status.loadedPages == 5)
            #expect(status.totalItems == 3_000)
            #expect(Array(await paginator.dataSource.flush()) == Self.serverOrder)
            #expect(try await server.requestCounts()[endpoint] == 6)
        }
    }

    @Test(arguments: ["pages", "offset", "cursor"])
    func nextURLModeFollowsTheLinkHeader(endpoint: String) async throws {
        try await withFixtureServer { server in
            try await server.control("shape=link")
            // The body is the array itself.
            let loader = Loader(url: server.url(endpoint), mode: .nextURL, pageSize: 700, responseKeys: .init(items: ""))
            let first = try await loader.loadPage(at: nil)
            #expect(first.items == Array(Self.serverOrder[0..<700]))
            guard case .url(let next)? = first.nextCursor else {
                Issue.record("expected a next URL, got \(String(describing: first.nextCursor))")
                return
            }
            // The header's relative reference, resolved against the request.
            #expect(next.absoluteString.hasPrefix(server.url(endpoint).absoluteString + "?"), "\(next)")
            #expect(first.totalItems == nil)

            let paginator = Paginator(loader: loader, retryPolicy: .none)
            let status = await HTTPPageLoaderTests.walk(paginator)
            #expect(status.state == .exhausted)
            #expect(status.loadedPages == 5)
            #expect(Array(await paginator.dataSource.flush()) == Self.serverOrder)
        }
    }

    @Test func extraHeadersGoOnlyToTheEndpointsOrigin() async throws {
        try await withFixtureServer { server in
            let keys = Loader.ResponseKeys(items: "results")
            let loader = Loader(url: server.url("cursor"), mode: .nextURL, pageSize: 700, responseKeys: keys, headers: ["Authorization": "Bearer secret"])
            try await server.control("shape=next-url")
            #expect(await HTTPPageLoaderTests.walk(Paginator(loader: loader, retryPolicy: .none)).state == .exhausted)
            #expect(try await server.authorizedCounts()["cursor"] == 5)

            // The same server under another name is another origin.
            try await server.control("reset=true&shape=next-url&nextOrigin=http://localhost:\(server.port)")
            let paginator = Paginator(loader: loader, retryPolicy: .none)
            #expect(await HTTPPageLoaderTests.walk(paginator).state == .exhausted)
            #expect(Array(await paginator.dataSource.flush()) == Self.serverOrder)
            #expect(try await server.requestCounts()["cursor"] == 5)
            #expect(try await server.authorizedCounts()["cursor"] == 1)
        }
    }

    @Test func aNextPageURLThatIsNotHTTPIsNotFollowed() async throws {
        try await withFixtureServer { server in
            // A host, but a scheme that is not followed.
            try await server.control("shape=next-url&nextOrigin=ftp://127.0.0.1:9")
            let loader = Loader(url: server.url("pages"), mode: .nextURL, responseKeys: .init(items: "results"))
            let error = await Self.error(with: loader)
            guard case .decoding(let url, "next", let description)? = error else {
                Issue.record("expected a decoding error at next, got \(String(describing: error))")
                return
            }
            #expect(url == loader.requestURL(for: nil))
            #expect(description.contains("ftp://127.0.0.1:9/pages?page=2&limit=50") && description.contains("not an http or https URL"), "\(description)")
            #expect(description.contains("line 1, column "), "\(description)")

            try await server.control("shape=link")
            let linked = Loader(url: server.url("pages"), mode: .nextURL, responseKeys: .init(items: ""))
            guard case .decoding(_, "", let linkDescription)? = await Self.error(with: linked) else {
                Issue.record("expected a decoding error for the Link header")
                return
            }
            #expect(linkDescription.contains("Link header") && linkDescription.contains("ftp://127.0.0.1:9/pages?page=2&limit=50"), "\(linkDescription)")
        }
    }

    // MARK: Error bodies

    @Test func anErrorStatusCarriesTheStartOfTheBodyBoundedAndSanitised() async throws {
        try await withFixtureServer { server in
            let loader = Loader(url: server.url("pages"), mode: .pageNumber)
            try await server.control("fail=1&status=503")
            let json = await Self.error(with: loader)
            #expect(json == .httpStatus(code: 503, url: loader.requestURL(for: nil), body: #"{"error":"injected failure","status":503}"#))

            try await server.control("fail=1&status=502&errorBody=noisy")
            let noisy = await Self.error(with: loader)
            guard case .httpStatus(502, let url, let body?)? = noisy else {
                Issue.record("expected HTTP 502 with a body, got \(String(describing: noisy))")
                return
            }
            #expect(url == loader.requestURL(for: nil))
            let start = "<html> <title>502 Bad Gateway</title>\\u{1B}[31m\\u{0}\\u{7} \u{FFFD}( \u{FFFD}\u{FFFD} \\u{202E}evil xxx"
            #expect(body.hasPrefix(start), "\(body.prefix(120))")
            #expect(body.hasSuffix("x…"))
            #expect(!body.contains("TAIL"))
            #expect(body.utf8.count <= PaginationError.bodyLimit + "…".utf8.count)
            #expect(body.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control })
            #expect(noisy?.description.hasPrefix("HTTP status 502 (\(url.absoluteString)): <html> <title>") == true)
        }
    }

    // MARK: Decoding errors

    @Test(arguments: [
        ("standard", Loader.ResponseKeys(), "data[3].score"),
        ("nested", Self.nested, "result.items[3].score"),
    ])
    func aBadValueIsReportedWithItsFieldAtItsOwnPosition(shape: String, keys: Loader.ResponseKeys, path: String) async throws {
        try await withFixtureServer { server in
            try await server.control("shape=\(shape)&badScore=3")
            let loader = Loader(url: server.url("pages"), mode: .pageNumber, pageSize: 10, responseKeys: keys)
            // Where the bad value is: the byte after `"score":` in the fourth row.
            let (body, _) = try await URLSession.shared.data(from: loader.requestURL(for: nil))
            let marker = Array(#""score":"abc""#.utf8)
            let bytes = [UInt8](body)
            let start = try #require((0...(bytes.count - marker.count)).first { bytes[$0..<$0 + marker.count].elementsEqual(marker) })
            let valueOffset = start + #""score":"#.utf8.count
            let error = await Self.error(with: loader)
            guard case .decoding(let url, let errorPath, let description)? = error else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(url == loader.requestURL(for: nil))
            #expect(errorPath == path)
            #expect(description.hasPrefix("line 1, column \(valueOffset + 1) (byte \(valueOffset)): expected Int"), "\(description)")
        }
    }

    // MARK: Totals

    @Test func thePaginatorShowsTheTotalsTheResponsesCarry() async throws {
        try await withFixtureServer { server in
            let pages = Paginator(loader: HTTPPageLoaderTests.loader(server, .pageNumber), retryPolicy: .none)
            pages.loadNextPage()
            #expect(await pages.settle() == PaginationStatus(state: .idle, loadedPages: 1, totalItems: 3_000, totalPages: 60))
            try await server.control("insertAhead=50")
            pages.refresh()
            #expect(await pages.settle() == PaginationStatus(state: .idle, loadedPages: 1, totalItems: 3_050, totalPages: 61))
            pages.reset()
            #expect(pages.status == PaginationStatus(state: .idle))

            let offsets = Paginator(loader: HTTPPageLoaderTests.loader(server, .offset), retryPolicy: .none)
            offsets.loadNextPage()
            #expect(await offsets.settle() == PaginationStatus(state: .idle, loadedPages: 1, totalItems: 3_050))

            let cursors = Paginator(loader: HTTPPageLoaderTests.loader(server, .cursor), retryPolicy: .none)
            cursors.loadNextPage()
            #expect(await cursors.settle() == PaginationStatus(state: .idle, loadedPages: 1))
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LeaderboardFixtures
import ListEngineTesting
import ListPagination
import Testing

/// `HTTPPageLoader` and `Paginator` against the real fixture server on 127.0.0.1.
///
/// Each test starts its own server (`python3 Fixtures/server.py --port 0`) and stops it
/// at the end; the suite is serialized to keep the load on the machine low.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HTTPPageLoaderTests {
    typealias Loader = HTTPPageLoader<Player>

    /// The players in server order, as the server starts.
    static let serverOrder: [Player] = {
        do {
            return try FixtureDirectory.locate().loadPlayers().sorted(by: <)
        } catch {
            Issue.record("cannot load the fixture players: \(error)")
            return []
        }
    }()

    static func endpoint(for mode: Loader.Mode) -> String {
        switch mode {
        case .pageNumber: "pages"
        case .offset: "offset"
        case .cursor, .nextURL: "cursor"
        }
    }

    static func loader(_ server: FixtureServer, _ mode: Loader.Mode, pageSize: Int = 50, timeout: Duration = .seconds(20)) -> Loader {
        Loader(url: server.url(endpoint(for: mode)), mode: mode, pageSize: pageSize, timeout: timeout)
    }

    /// Loads pages until the paginator is exhausted or fails; returns the final status.
    static func walk<L, C>(_ paginator: Paginator<L, C>, maxPages: Int = 1_000) async -> PaginationStatus {
        for _ in 0..<maxPages {
            paginator.loadNextPage()
            let status = await paginator.settle()
            if status.state != .idle { return status }
        }
        return paginator.status
    }

    @Test(arguments: [Loader.Mode.pageNumber, .offset, .cursor])
    func fullWalkLoadsEveryRowOnceInServerOrder(mode: Loader.Mode) async throws {
        try await withFixtureServer { server in
            let paginator = Paginator(loader: Self.loader(server, mode), retryPolicy: .none)
            let status = await Self.walk(paginator)
            #expect(status.state == .exhausted)
            #expect(status.loadedPages == 60)
            let rows = Array(await paginator.dataSource.flush())
            #expect(rows.count == 3_000)
            #expect(rows == Self.serverOrder)
            let counts = try await server.requestCounts()
            #expect(counts[Self.endpoint(for: mode)] == 60)
        }
    }

    @Test func pageNumberWalkStopsAtTotalPagesWithAnyPageSize() async throws {
        // 3,000 rows in pages of 700: the fifth and last page has 200 rows. (Stopping at
        // a short page when no total is given is covered by PageNumberLoaderTests.)
        try await withFixtureServer { server in
            let paginator = Paginator(loader: Self.loader(server, .pageNumber, pageSize: 700), retryPolicy: .none)
            #expect(await Self.walk(paginator).state == .exhausted)
            #expect(await paginator.dataSource.flush().count == 3_000)
            let counts = try await server.requestCounts()
            #expect(counts["pages"] == 5)
        }
    }

    @Test func queryParameterNamesAreConfigurable() async throws {
        let arguments = ["--page-param", "p", "--limit-param", "size", "--offset-param", "skip", "--cursor-param", "after"]
        try await withFixtureServer(arguments: arguments) { server in
            let names = Loader.ParameterNames(page: "p", limit: "size", offset: "skip", cursor: "after")
            for mode in [Loader.Mode.pageNumber, .offset, .cursor] {
                let loader = Loader(url: server.url(Self.endpoint(for: mode)), mode: mode, pageSize: 500, parameterNames: names)
                let paginator = Paginator(loader: loader, retryPolicy: .none)
                #expect(await Self.walk(paginator).state == .exhausted, "\(mode)")
                #expect(Array(await paginator.dataSource.flush()) == Self.serverOrder, "\(mode)")
            }
            let counts = try await server.requestCounts()
            #expect(counts == ["pages": 6, "offset": 6, "cursor": 6])
        }
    }

    @Test func requestURLsCarryTheModesParameters() {
        let base = URL(string: "http://127.0.0.1:9/api/players?region=eu")!
        let pages = Loader(url: base, mode: .pageNumber, pageSize: 25)
        #expect(pages.requestURL(for: nil).absoluteString == "http://127.0.0.1:9/api/players?region=eu&page=1&limit=25")
        #expect(pages.requestURL(for: .page(3)).absoluteString == "http://127.0.0.1:9/api/players?region=eu&page=3&limit=25")
        let offsets = Loader(url: base, mode: .offset)
        #expect(offsets.requestURL(for: .offset(100)).absoluteString == "http://127.0.0.1:9/api/players?region=eu&offset=100&limit=50")
        let cursors = Loader(url: base, mode: .cursor, parameterNames: .init(cursor: "after"))
        #expect(cursors.requestURL(for: nil).absoluteString == "http://127.0.0.1:9/api/players?region=eu&limit=50")
        #expect(cursors.requestURL(for: .token("c_a+b/c=")).absoluteString == "http://127.0.0.1:9/api/players?region=eu&after=c_a%2Bb/c%3D&limit=50"
            || cursors.requestURL(for: .token("c_a+b/c=")).absoluteString == "http://127.0.0.1:9/api/players?region=eu&after=c_a%2Bb/c=&limit=50")
    }

    @Test func theEndpointsOwnQueryIsKeptAsWritten() {
        // A `+` the endpoint wrote (a space, to most servers) and its own escapes stay as they are.
        let search = Loader(url: URL(string: "http://127.0.0.1:9/api/players?q=top+players&tag=a%26b")!, mode: .pageNumber, pageSize: 25)
        #expect(search.requestURL(for: .page(2)).absoluteString == "http://127.0.0.1:9/api/players?q=top+players&tag=a%26b&page=2&limit=25")
        let bare = Loader(url: URL(string: "http://127.0.0.1:9/api/players?")!, mode: .offset)
        #expect(bare.requestURL(for: nil).absoluteString == "http://127.0.0.1:9/api/players?offset=0&limit=50")
    }

    @Test func serverErrorsFailTheLoadKeepRowsAndRetryReloadsTheSamePage() async throws {
        try await withFixtureServer { server in
            let loader = Self.loader(server, .pageNumber)
            let paginator = Paginator(loader: loader, retryPolicy: .none)
            paginator.loadNextPage()
            await paginator.settle()
            try await server.control("fail=1&status=500")
            paginator.loadNextPage()
            let failed = await paginator.settle()
            let page2 = loader.requestURL(for: .page(2))
            #expect(failed.state == .failed(.httpStatus(code: 500, url: page2, body: #"{"error":"injected failure","status":500}"#)))
            #expect(Array(await paginator.dataSource.flush()) == Array(Self.serverOrder[0..<50]))
            paginator.retry()
            #expect(await paginator.settle().state == .idle)
            #expect(Array(await paginator.dataSource.flush()) == Array(Self.serverOrder[0..<100]))
            let counts = try await server.requestCounts()
            #expect(counts["pages"] == 3)
        }
    }

    @Test func serverErrorsAreRetriedAutomaticallyWithBackoff() async throws {
        try await withFixtureServer { server in
            let clock = ManualClock()
            let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)
            let paginator = Paginator(loader: Self.loader(server, .cursor), loadingIndicatorDelay: .zero, retryPolicy: policy, clock: clock)
            try await server.control("fail=2&status=503")
            paginator.loadNextPage()
            await clock.waitForSleepers(count: 1)
            #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(1))])
            #expect(paginator.status.failedAttempts == 1)
            clock.advance(by: .seconds(1))
            await paginator.waitForStatus { $0.failedAttempts == 2 }
            await clock.waitForSleepers(count: 1)
            #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(3))])
            clock.advance(by: .seconds(2))
            let status = await paginator.settle()
            #expect(status == PaginationStatus(state: .idle, loadedPages: 1))
            #expect(Array(await paginator.dataSource.flush()) == Array(Self.serverOrder[0..<50]))
            let counts = try await server.requestCounts()
            #expect(counts["cursor"] == 3)
        }
    }

    @Test func clientErrorsAreNotRetried() async throws {
        try await withFixtureServer { server in
            let clock = ManualClock()
            let loader = Self.loader(server, .offset)
            let paginator = Paginator(loader: loader, retryPolicy: RetryPolicy(maxAttempts: 5, jitter: 0), clock: clock)
            try await server.control("fail=1&status=404")
            paginator.loadNextPage()
            let body = #"{"error":"injected failure","status":404}"#
            #expect(await paginator.settle().state == .failed(.httpStatus(code: 404, url: loader.requestURL(for: nil), body: body)))
            let counts = try await server.requestCounts()
            #expect(counts["offset"] == 1)
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        try await withFixtureServer { server in
            try await server.control("delayMs=5000&delayCount=1")
            let loader = Self.loader(server, .pageNumber, timeout: .milliseconds(300))
            await #expect(throws: PaginationError.timedOut(url: loader.requestURL(for: nil))) {
                try await loader.loadPage(at: nil)
            }
            // The next request is not delayed and succeeds.
            let page = try await loader.loadPage(at: nil)
            #expect(page.items.count == 50)
        }
    }

    @Test func cancellingALoadStopsItPromptly() async throws {
        try await withFixtureServer { server in
            try await server.control("delayMs=10000&delayCount=1")
            let loader = Self.loader(server, .pageNumber)
            let task = Task { try await loader.loadPage(at: nil) }
            try await Task.sleep(for: .milliseconds(100))
            task.cancel()
            await #expect(throws: PaginationError.cancelled) { try await task.value }
        }
    }

    @Test func truncatedJSONNamesTheURLAndWhereItBreaks() async throws {
        try await withFixtureServer { server in
            try await server.control("malformed=1")
            let loader = Self.loader(server, .pageNumber)
            do {
                _ = try await loader.loadPage(at: nil)
                Issue.record("a truncated body must not decode")
            } catch let error as PaginationError {
                guard case .decoding(let url, let path, let description) = error else {
                    Issue.record("expected a decoding error, got \(error)")
                    return
                }
                #expect(url == loader.requestURL(for: nil))
                #expect(path.hasPrefix("data["), "the body is cut inside the rows: \(path)")
                #expect(description.contains("line ") && description.contains("end of data"), "\(description)")
                #expect(error.description.contains(loader.requestURL(for: nil).absoluteString))
            }
        }
    }

    @Test(arguments: [
        ("wrong-type.json", "data[3].score", "line 5"),
        ("truncated.json", "data[2].name", "(byte 176)"),
        ("bad-utf8.json", "data[1].name", "(byte 106)"),
        ("missing-pagination.json", "pagination", "line 1, column 1"),
        ("not-an-object.json", "", "line 1, column 1"),
        ("empty.json", "", "(byte 0)"),
    ])
    func malformedDocumentsNameTheDecodingPath(file: String, path: String, position: String) async throws {
        try await withFixtureServer { server in
            let loader = Loader(url: server.url("static/malformed/\(file)"), mode: .pageNumber)
            await #expect {
                try await loader.loadPage(at: nil)
            } throws: { error in
                guard case .decoding(let url, let errorPath, let description) = error as? PaginationError else { return false }
                return url == loader.requestURL(for: nil) && errorPath == path && description.contains(position)
            }
        }
    }

    @Test func offsetPagingKeepsRowsOnceWhenRowsAreInsertedAhead() async throws {
        try await withFixtureServer { server in
            let paginator = Paginator(loader: Self.loader(server, .offset), retryPolicy: .none)
            paginator.loadNextPage()
            await paginator.settle()
            try await server.control("insertAhead=5")
            paginator.loadNextPage()
            await paginator.settle()
            let rows = Array(await paginator.dataSource.flush())
            // Page 2 (offset 50) now holds original rows 45..<95: 5 repeats, kept once.
            #expect(rows == Array(Self.serverOrder[0..<95]))
            #expect(Set(rows.map(\.id)).count == rows.count)
        }
    }

    @Test func offsetPagingSkipsRowsDeletedAheadButCursorPagingDoesNot() async throws {
        try await withFixtureServer { server in
            let offsetPaginator = Paginator(loader: Self.loader(server, .offset), retryPolicy: .none)
            offsetPaginator.loadNextPage()
            await offsetPaginator.settle()
            try await server.control("delete=5")
            offsetPaginator.loadNextPage()
            await offsetPaginator.settle()
            let offsetRows = Set(await offsetPaginator.dataSource.flush().map(\.id))
            let skipped = Self.serverOrder[0..<105].map(\.id).filter { !offsetRows.contains($0) }
            #expect(skipped == Self.serverOrder[50..<55].map(\.id), "offset paging skips the rows that moved into page 1")

            try await server.control("reset=true")
            let cursorPaginator = Paginator(loader: Self.loader(server, .cursor), retryPolicy: .none)
            cursorPaginator.loadNextPage()
            await cursorPaginator.settle()
            try await server.control("delete=5&insertAhead=3")
            cursorPaginator.loadNextPage()
            await cursorPaginator.settle()
            #expect(Array(await cursorPaginator.dataSource.flush()) == Array(Self.serverOrder[0..<100]), "cursor paging neither skips nor repeats")
        }
    }

    @Test func refreshReplacesRowsWithTheServersCurrentFirstPage() async throws {
        try await withFixtureServer { server in
            let paginator = Paginator(loader: Self.loader(server, .cursor), retryPolicy: .none)
            paginator.loadNextPage()
            await paginator.settle()
            paginator.loadNextPage()
            await paginator.settle()
            try await server.control("insertAhead=2")
            paginator.refresh()
            #expect(await paginator.settle() == PaginationStatus(state: .idle, loadedPages: 1))
            let rows = Array(await paginator.dataSource.flush())
            #expect(rows.map(\.id) == ["n00002", "n00001"] + Self.serverOrder[0..<48].map(\.id))
        }
    }

    @Test func cursorModeNamesThePageBeforeAndLoadsItWithBefore() async throws {
        try await withFixtureServer { server in
            let loader = Self.loader(server, .cursor)
            let first = try await loader.loadPage(at: nil)
            #expect(first.previousCursor == nil)
            let second = try await loader.loadPage(at: first.nextCursor)
            #expect(second.items == Array(Self.serverOrder[50..<100]))
            guard case .before(let token)? = second.previousCursor else {
                Issue.record("expected a previous cursor, got \(String(describing: second.previousCursor))")
                return
            }
            #expect(loader.requestURL(for: .before(token)).absoluteString == server.url("cursor").absoluteString + "?before=\(token)&limit=50")
            let back = try await loader.loadPage(at: .before(token))
            #expect(back.items == Array(Self.serverOrder[0..<50]))
            #expect(back.previousCursor == nil)
            #expect(back.nextCursor == first.nextCursor)
            // Page numbers and offsets name the page before by arithmetic.
            #expect(try await Self.loader(server, .pageNumber).loadPage(at: .page(3)).previousCursor == .page(2))
            #expect(try await Self.loader(server, .offset).loadPage(at: .offset(30)).previousCursor == .offset(0))
        }
    }

    @Test func aWindowScrollsUpFromAJumpToTheStartExactlyWhileRowsChangeAhead() async throws {
        try await withFixtureServer { server in
            let loader = Self.loader(server, .cursor, pageSize: 40)
            var cursor: HTTPPageCursor? = nil
            for _ in 0..<10 { cursor = try await loader.loadPage(at: cursor).nextCursor }  // after row 399
            let paginator = Paginator(loader: loader, prefetchDistance: 5, maxLoadedRows: 100, retryPolicy: .none)
            paginator.jump(to: cursor)
            #expect(await PaginatorWindowTests.quiet(paginator) == Array(Self.serverOrder[400..<440]))
            try await server.control("delete=2&insertAhead=3")
            for _ in 0..<30 where paginator.status.prepend != .exhausted {
                paginator.itemDidAppear(at: 0)
                _ = await PaginatorWindowTests.quiet(paginator)
            }
            #expect(paginator.status.prepend == .exhausted)
            let rows = await PaginatorWindowTests.quiet(paginator)
            #expect(rows.count <= 100)
            // The server inserts three rows at the top, then deletes the top two of them.
            let order = ["n00001"] + Self.serverOrder.map(\.id)
            #expect(rows.map(\.id) == Array(order.prefix(rows.count)))
            #expect(paginator.status.append == .idle, "the rows dropped at the bottom load again from there")
        }
    }

    @Test func anUnreachableServerIsATransportError() async throws {
        let server = try await FixtureServer.start()
        let url = server.url("pages")
        server.stop()
        let loader = Loader(url: url, mode: .pageNumber, timeout: .seconds(10))
        await #expect {
            try await loader.loadPage(at: nil)
        } throws: { error in
            guard case .transport(let failingURL, _) = error as? PaginationError else { return false }
            return failingURL == loader.requestURL(for: nil)
        }
    }
}

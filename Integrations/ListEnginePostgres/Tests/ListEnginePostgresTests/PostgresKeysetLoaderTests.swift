import ListEngine
@testable import ListEnginePostgres
import ListPagination
import PostgresNIO
import Testing

/// Keyset pages by SQL against a real PostgreSQL: both directions, ties, the ends, bound
/// parameters, and a bounded window scrolled over the whole table.
@Suite(.timeLimit(.minutes(5)))
struct PostgresKeysetLoaderTests {
    @Test("pages forward, then backward from the end, give every row once, in order")
    func pagesCoverTheTableBothWays() async throws {
        let rows = Database.sampleRows(1_000, seed: 11)
        let oracle = rows.sorted(by: <)
        try await Database.withConnection { try await Database.makeTable("loader_pages", rows: rows, on: $0) }
        try await Database.withClient { client in
            let loader = try Database.loader(client, table: "loader_pages", limit: 37)
            var forward: [Row] = []
            var page = try await loader.loadPage(at: nil)
            #expect(page.previousCursor == nil)
            forward += page.items
            var last = page
            while let next = page.nextCursor {
                page = try await loader.loadPage(at: next)
                forward += page.items
                last = page
            }
            #expect(forward == oracle)
            #expect(last.items.count == 1_000 % 37)
            // Past the end: an empty page, and the page before it is "through" the last key.
            let beyond = try await loader.loadPage(at: .after(loader.key(oracle[999])))
            #expect(beyond.items.isEmpty)
            guard case .through(let key)? = beyond.previousCursor else {
                Issue.record("the page past the end should name .through(last key), got \(String(describing: beyond.previousCursor))")
                return
            }
            var backward = try await loader.loadPage(at: .through(key))
            var collected = backward.items
            while let previous = backward.previousCursor {
                backward = try await loader.loadPage(at: previous)
                collected = backward.items + collected
            }
            #expect(collected == oracle)
        }
    }

    @Test("a value with quotes and SQL in it is a value: it pages like any other")
    func valuesAreBoundNotWritten() async throws {
        let hostile = ["a'b", "x\"); DROP TABLE loader_values; --", "c\\d", "é'"]
        let rows = hostile.enumerated().map { Row(id: $1, score: 10 - $0, name: "n'\($0)") } + Database.sampleRows(20, seed: 3)
        try await Database.withConnection { try await Database.makeTable("loader_values", rows: rows, on: $0) }
        try await Database.withClient { client in
            let loader = try Database.loader(client, table: "loader_values", limit: 2)
            var all: [Row] = []
            var cursor: KeysetCursor<PostgresKey>? = nil
            repeat {
                let page = try await loader.loadPage(at: cursor)
                all += page.items
                cursor = page.nextCursor
            } while cursor != nil
            #expect(all == rows.sorted(by: <))
        }
        let left = try await Database.withConnection { try await Database.rows(of: "loader_values", on: $0) }
        #expect(left.count == rows.count)
    }

    @Test("names that are not plain identifiers are refused before any query")
    func badNamesAreRefused() throws {
        for name in ["players; DROP TABLE x", "a b", "\"quoted\"", "", "1abc", "a.b.c", String(repeating: "x", count: 64)] {
            #expect(throws: PostgresListError.badIdentifier(name)) { try PostgresIdentifier(name) }
        }
        #expect(try PostgresIdentifier("public.players").sql == "\"public\".\"players\"")
        #expect(throws: PostgresListError.self) { try PostgresChangeTriggers.statements(table: "players", idColumn: "id", channel: "bad-channel") }
    }

    @Test("URLs: user, password, host, port, database; anything else is refused")
    func urls() throws {
        let url = try PostgresURL("postgres://me:secret@db.local:6543/app")
        #expect((url.username, url.password, url.host, url.port, url.database) == ("me", "secret", "db.local", 6543, "app"))
        #expect(url.description == "postgres://me@db.local:6543/app")
        #expect(try PostgresURL("postgresql://me@127.0.0.1/app").port == 5432)
        for bad in ["http://me@h/app", "postgres://h/app", "postgres://me@h", "postgres://me@h/a/b", "not a url"] {
            #expect(throws: PostgresListError.badURL(bad)) { try PostgresURL(bad) }
        }
    }

    @Test("a window of at most 60 rows scrolled to the end and back holds consecutive rows of the table")
    func aBoundedWindowScrollsOverTheTable() async throws {
        let rows = Database.sampleRows(600, seed: 5)
        let oracle = rows.sorted(by: <)
        try await Database.withConnection { try await Database.makeTable("loader_window", rows: rows, on: $0) }
        try await Database.withClient { client in
            let loader = try Database.loader(client, table: "loader_window", limit: 20)
            let paginator = Paginator(dataSource: ListDataSource<Row>(), loader: loader, prefetchDistance: 5, maxLoadedRows: 60)
            paginator.loadNextPage()
            func settled() async throws -> [Row] {
                try await eventually("the paginator settles") {
                    isSettled(paginator.status)
                }
                return Array(await paginator.dataSource.flush())
            }
            var window = try await settled()
            var steps = 0
            while window.last != oracle.last, steps < 200 {
                paginator.itemDidAppear(at: window.count - 1)
                window = try await settled()
                let start = oracle.firstIndex(of: window[0]) ?? -1
                #expect(start >= 0 && Array(oracle[start ..< min(oracle.count, start + window.count)]) == window)
                #expect(window.count <= 60)
                steps += 1
            }
            #expect(window.last == oracle.last)
            while window.first != oracle.first, steps < 400 {
                paginator.itemDidAppear(at: 0)
                window = try await settled()
                let start = oracle.firstIndex(of: window[0]) ?? -1
                #expect(start >= 0 && Array(oracle[start ..< min(oracle.count, start + window.count)]) == window)
                steps += 1
            }
            #expect(window.first == oracle.first)
        }
    }
}

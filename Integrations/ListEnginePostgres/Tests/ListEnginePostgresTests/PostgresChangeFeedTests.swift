import ListEngine
import ListEnginePostgres
import ListPagination
import Logging
import PostgresNIO
import Synchronization
import Testing

/// Changes made in SQL reach windows through the triggers and the feed: per statement,
/// in bursts, across a terminated connection, and after a TRUNCATE. Each test has its
/// own table and channel; the feed's connection is named so that only it is terminated.
@Suite(.timeLimit(.minutes(5)))
struct PostgresChangeFeedTests {
    /// A feed over `table`, running in a task, with windows made by `window(_:)`.
    final class Harness: Sendable {
        let table: String
        let feed: PostgresChangeFeed<Row>
        let loader: PostgresKeysetLoader<Row>
        let task: Task<Void, any Error>

        init(table: String, client: PostgresClient) async throws {
            self.table = table
            loader = try Database.loader(client, table: table, limit: 25)
            var configuration = Database.url.connectionConfiguration
            configuration.options.additionalStartupParameters = [("application_name", "feed_\(table)")]
            try await Database.withConnection { connection in
                try await PostgresChangeTriggers.install(table: table, idColumn: "id", channel: "\(table)_changes", on: connection, logger: Database.logger)
                // Idempotent: a second install replaces the same function and triggers.
                try await PostgresChangeTriggers.install(table: table, idColumn: "id", channel: "\(table)_changes", on: connection, logger: Database.logger)
            }
            let feed = PostgresChangeFeed(configuration: configuration, channel: "\(table)_changes", loader: loader)
            self.feed = feed
            task = Task { try await feed.run() }
            await feed.waitUntilListening()
        }

        /// A window of at most 75 rows, subscribed before its first page, scrolled down
        /// `pages` pages.
        func window(scrolledDown pages: Int) async throws -> Paginator<PostgresKeysetLoader<Row>, ContinuousClock> {
            let paginator = Paginator(dataSource: ListDataSource<Row>(), loader: loader, prefetchDistance: 5, maxLoadedRows: 75)
            _ = feed.subscribe(paginator)
            paginator.loadNextPage()
            try await settle(paginator)
            for _ in 0 ..< pages {
                paginator.itemDidAppear(at: paginator.dataSource.count - 1)
                try await settle(paginator)
            }
            return paginator
        }

        func settle(_ paginator: Paginator<PostgresKeysetLoader<Row>, ContinuousClock>) async throws {
            try await eventually("the paginator settles") {
                isSettled(paginator.status) && paginator.status.loadedPages > 0
            }
            _ = await paginator.dataSource.flush()
        }

        /// Whether the window holds exactly the table's rows between its first and last
        /// row (from the first row of the table when `isTop`).
        func matches(_ paginator: Paginator<PostgresKeysetLoader<Row>, ContinuousClock>, isTop: Bool, on connection: PostgresConnection) async throws -> Bool {
            let window = Array(await paginator.dataSource.flush())
            let table = try await Database.rows(of: self.table, on: connection)
            guard let first = window.first, let last = window.last else { return table.isEmpty }
            guard let start = table.firstIndex(of: first), let end = table.firstIndex(of: last), start <= end else { return false }
            return Array(table[start ... end]) == window && (!isTop || start == 0)
        }

        func stop() {
            task.cancel()
        }
    }

    @Test("inserts, updates and deletes in SQL reach a top window and a deep one, exactly")
    func sqlChangesReachTheWindows() async throws {
        let table = "feed_changes"
        try await Database.withConnection { try await Database.makeTable(table, rows: Database.sampleRows(400, seed: 21), on: $0) }
        try await Database.withClient { client in
            let harness = try await Harness(table: table, client: client)
            defer { harness.stop() }
            let top = try await harness.window(scrolledDown: 0)
            let deep = try await harness.window(scrolledDown: 6)
            try await Database.withConnection { connection in
                var rng = SystemRandomNumberGenerator()
                for step in 0 ..< 300 {
                    let id = String(format: "r%04d", Int.random(in: 0 ..< 400, using: &rng))
                    switch step % 10 {
                    case 0: try await Database.execute("DELETE FROM \(table) WHERE id = '\(id)'", on: connection)
                    case 1: try await Database.execute("INSERT INTO \(table) VALUES ('n\(step)', \(Int.random(in: 0 ..< 200, using: &rng)), 'new') ON CONFLICT DO NOTHING", on: connection)
                    default: try await Database.execute("UPDATE \(table) SET score = \(Int.random(in: 0 ..< 200, using: &rng)) WHERE id = '\(id)'", on: connection)
                    }
                }
                try await eventually("both windows equal the table between their first and last rows") {
                    let topMatches = try await harness.matches(top, isTop: true, on: connection)
                    let deepMatches = try await harness.matches(deep, isTop: false, on: connection)
                    return topMatches && deepMatches
                }
                #expect(top.dataSource.count <= 75 && deep.dataSource.count <= 75)
            }
            let statistics = harness.feed.statistics
            #expect(statistics.notifications > 0 && statistics.reads > 0 && statistics.reads <= statistics.notifications)
            #expect(statistics.subscribers == 2)
        }
    }

    @Test("one statement that changes 300 rows sends a few notifications and is read in one query")
    func aStatementIsAFewNotifications() async throws {
        let table = "feed_bulk"
        try await Database.withConnection { try await Database.makeTable(table, rows: Database.sampleRows(300, seed: 8), on: $0) }
        try await Database.withClient { client in
            let harness = try await Harness(table: table, client: client)
            defer { harness.stop() }
            let top = try await harness.window(scrolledDown: 1)
            try await Database.withConnection { connection in
                try await Database.execute("UPDATE \(table) SET score = score + 1000 WHERE score % 2 = 0", on: connection)
                try await eventually("the window shows the bulk update") { try await harness.matches(top, isTop: true, on: connection) }
            }
            let statistics = harness.feed.statistics
            // About 150 ids of about 8 bytes each: one notification of under 7,900 bytes.
            #expect(statistics.notifications == 1, "notifications: \(statistics.notifications)")
            #expect(statistics.reads == 1, "reads: \(statistics.reads)")
        }
    }

    @Test("a terminated LISTEN connection loses nothing: changes made meanwhile arrive by the resync")
    func aTerminatedConnectionLosesNothing() async throws {
        let table = "feed_terminate"
        try await Database.withConnection { try await Database.makeTable(table, rows: Database.sampleRows(300, seed: 34), on: $0) }
        try await Database.withClient { client in
            let harness = try await Harness(table: table, client: client)
            defer { harness.stop() }
            let top = try await harness.window(scrolledDown: 0)
            let deep = try await harness.window(scrolledDown: 4)
            try await Database.withConnection { connection in
                for round in 0 ..< 3 {
                    try await Database.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'feed_\(table)'",
                        // While no connection listens: moves, a delete, an insert at the top.
                        "UPDATE \(table) SET score = 200 + \(round) WHERE id IN (SELECT id FROM \(table) ORDER BY score, id LIMIT 3)",
                        "DELETE FROM \(table) WHERE id = (SELECT id FROM \(table) ORDER BY score DESC, id LIMIT 1 OFFSET 2)",
                        "INSERT INTO \(table) VALUES ('late\(round)', 500, 'late')",
                        on: connection
                    )
                    try await eventually("both windows equal the table after reconnection \(round + 1)") {
                        let topMatches = try await harness.matches(top, isTop: true, on: connection)
                        let deepMatches = try await harness.matches(deep, isTop: false, on: connection)
                        return topMatches && deepMatches
                    }
                }
                #expect(top.dataSource.snapshot.first?.id == "late0", "the three late rows tie at 500: by id")
            }
            let statistics = harness.feed.statistics
            #expect(statistics.connections >= 4, "connections: \(statistics.connections)")
            #expect(statistics.resyncs >= 3, "resyncs: \(statistics.resyncs)")
        }
    }

    @Test("a TRUNCATE empties every window; rows inserted after it appear")
    func truncateResyncs() async throws {
        let table = "feed_truncate"
        try await Database.withConnection { try await Database.makeTable(table, rows: Database.sampleRows(100, seed: 2), on: $0) }
        try await Database.withClient { client in
            let harness = try await Harness(table: table, client: client)
            defer { harness.stop() }
            let top = try await harness.window(scrolledDown: 0)
            #expect(top.dataSource.count == 25)
            try await Database.withConnection { connection in
                try await Database.execute("TRUNCATE \(table)", on: connection)
                try await eventually("the window is empty") { await top.dataSource.flush().isEmpty }
                try await Database.execute("INSERT INTO \(table) VALUES ('first', 1, 'one')", on: connection)
                try await eventually("the new row is shown") { await top.dataSource.flush().map(\.id) == ["first"] }
            }
        }
    }
}

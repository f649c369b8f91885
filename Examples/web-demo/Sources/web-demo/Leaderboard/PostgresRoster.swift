import LeaderboardFixtures
import ListEnginePostgres
import ListPagination
import Logging
import PostgresNIO
import Synchronization

/// The players in a PostgreSQL table, `players(id text COLLATE "C" PRIMARY KEY, name
/// text NOT NULL, score integer NOT NULL, country text NOT NULL)`, ordered `score DESC,
/// id`: the source of truth that several instances of the demo share.
///
/// Pages are keyset SQL (`PostgresKeysetLoader`); the demo's feed writes its events as
/// SQL (``write(_:)``); and every change, whoever made it, comes back to every view of
/// every instance through the table's triggers and this instance's
/// `PostgresChangeFeed` (``feed``), never through memory.
final class PostgresRoster: PlayerStore {
    static let table = "players"
    static let channel = "players_changes"

    let url: PostgresURL
    let client: PostgresClient
    let loader: PostgresKeysetLoader<Player>
    let feed: PostgresChangeFeed<Player>
    private let logger: Logger
    private let counted = Atomic<Int>(0)
    private let running = Mutex<Task<Void, Never>?>(nil)

    init(url: PostgresURL, logger: Logger) throws {
        self.url = url
        self.logger = logger
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = 8
        client = PostgresClient(configuration: configuration)
        loader = try PostgresKeysetLoader<Player>(
            client: client, relation: Self.table, columns: ["id", "name", "score", "country"],
            orderBy: [.descending("score"), .ascending("id")], idColumn: "id", limit: 50,
            key: { PostgresKey($0.score, $0.id) },
            decode: { row in
                let (id, name, score, country) = try row.decode((String, String, Int, String).self)
                return Player(id: id, name: name, score: score, country: country)
            },
            logger: logger
        )
        feed = PostgresChangeFeed(configuration: url.connectionConfiguration, channel: Self.channel, loader: loader, logger: logger)
    }

    /// Starts the pool and the feed, makes the table and its triggers if needed, fills an
    /// empty table with `seed` players (`fixtures` first, then generated ones), and
    /// returns once the feed LISTENs: views made after it miss no change.
    func start(seed: Int, fixtures: [Player]) async throws {
        let client = client, feed = feed
        running.withLock {
            $0 = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await client.run() }
                    group.addTask { try? await feed.run() }
                }
            }
        }
        try await client.withConnection { connection in
            try await run([
                "SELECT pg_advisory_lock(hashtext('listengine_players'))",
                """
                CREATE TABLE IF NOT EXISTS players (
                    id text COLLATE "C" PRIMARY KEY, name text NOT NULL, score integer NOT NULL, country text NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS players_rank ON players (score DESC, id)",
            ], on: connection)
            do {
                try await PostgresChangeTriggers.install(table: Self.table, idColumn: "id", channel: Self.channel, on: connection, logger: logger)
                try await seedIfEmpty(seed, fixtures: fixtures, on: connection)
            } catch {
                try? await run(["SELECT pg_advisory_unlock(hashtext('listengine_players'))"], on: connection)
                throw error
            }
            try await run(["SELECT pg_advisory_unlock(hashtext('listengine_players'))"], on: connection)
        }
        await refreshCount()
        await feed.waitUntilListening()
    }

    /// Stops the pool and the feed.
    func stop() {
        running.withLock { $0 }?.cancel()
    }

    private func run(_ statements: [String], on connection: PostgresConnection) async throws {
        for statement in statements {
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    private func seedIfEmpty(_ count: Int, fixtures: [Player], on connection: PostgresConnection) async throws {
        let rows = try await connection.query("SELECT EXISTS (SELECT 1 FROM players)", logger: logger)
        for try await exists in rows.decode(Bool.self) where exists { return }
        let generated = GeneratedLeaderboard(count: max(1, count - fixtures.count))
        var batch: [Player] = []
        func flush() async throws {
            guard !batch.isEmpty else { return }
            let query: PostgresQuery = """
                INSERT INTO players (id, name, score, country)
                SELECT * FROM unnest(\(batch.map(\.id)), \(batch.map(\.name)), \(batch.map(\.score)), \(batch.map(\.country)))
                ON CONFLICT (id) DO NOTHING
                """
            _ = try await connection.query(query, logger: logger)
            batch.removeAll(keepingCapacity: true)
        }
        for index in 0 ..< count {
            batch.append(index < fixtures.count ? fixtures[index] : generated.basePlayer(at: index - fixtures.count))
            if batch.count == 10_000 { try await flush() }
        }
        try await flush()
    }

    func page(at cursor: KeysetCursor<RankKey>?, count: Int) async throws -> [Player] {
        let key = { (key: RankKey) in PostgresKey(key.score, key.id) }
        let mapped: KeysetCursor<PostgresKey>? = switch cursor {
        case nil: nil
        case .after(let at)?: .after(key(at))
        case .before(let at)?: .before(key(at))
        case .through(let at)?: .through(key(at))
        }
        return try await loader.rows(at: mapped, count: count)
    }

    func rank(of player: Player) async throws -> Int {
        let query: PostgresQuery = "SELECT count(*) FROM players WHERE score > \(player.score) OR (score = \(player.score) AND id < \(player.id))"
        for try await count in try await client.query(query, logger: logger).decode(Int.self) { return count + 1 }
        return 1
    }

    var playerCount: Int { counted.load(ordering: .relaxed) }

    /// Reads the number of players again (`/status` shows it; counting on every request
    /// would cost a scan each): the leaderboard's sweep calls it about once a second.
    func refreshCount() async {
        do {
            for try await count in try await client.query("SELECT count(*) FROM players", logger: logger).decode(Int.self) {
                counted.store(count, ordering: .relaxed)
            }
        } catch {
            logger.warning("counting players failed", metadata: ["error": "\(error)"])
        }
    }

    /// Writes a feed event as SQL: a score change is an `UPDATE`, a join an `INSERT`
    /// (an `UPDATE` of a player who is there), a departure a `DELETE`.
    func write(_ event: FeedEvent) async throws {
        let query: PostgresQuery
        switch event {
        case .score(let id, let score):
            query = "UPDATE players SET score = \(score) WHERE id = \(id)"
        case .join(let player):
            query = """
                INSERT INTO players (id, name, score, country) VALUES (\(player.id), \(player.name), \(player.score), \(player.country))
                ON CONFLICT (id) DO UPDATE SET score = EXCLUDED.score
                """
        case .leave(let id):
            query = "DELETE FROM players WHERE id = \(id)"
        }
        _ = try await client.query(query, logger: logger)
    }
}

import ListEngine
import ListPagination
import Logging
import PostgresNIO

/// Loads keyset pages of a table or view with SQL: the rows after or before a row's key
/// in an `ORDER BY` given as columns, in both directions, with bound parameters only.
///
/// It is a `KeysetLoader` whose rows come from PostgreSQL, so it has the same cursors
/// (`KeysetCursor`) and the same guarantees for windows (`Paginator.maxLoadedRows`):
/// a page loaded again starts right after (ends right before) the row it is keyed on,
/// whatever changed in between. Each page is one query: `SELECT columns FROM relation
/// WHERE (after or before the key) ORDER BY … LIMIT limit + 1`, which an index on the
/// order's columns answers by reading about `limit` rows, however deep the page.
///
/// ```swift
/// let loader = try PostgresKeysetLoader<Player>(
///     client: client, relation: "players", columns: ["id", "name", "score", "country"],
///     orderBy: [.descending("score"), .ascending("id")], idColumn: "id", limit: 50,
///     key: { PostgresKey($0.score, $0.id) },
///     decode: { row in
///         let (id, name, score, country) = try row.decode((String, String, Int, String).self)
///         return Player(id: id, name: name, score: score, country: country)
///     }
/// )
/// let paginator = Paginator(dataSource: ListDataSource<Player>(), loader: loader, maxLoadedRows: 200)
/// ```
///
/// The order's columns must end with a unique one, be `NOT NULL`, and sort as the items'
/// `<` does (see ``PostgresOrderColumn``). ``PostgresChangeFeed`` reads changed rows
/// and windows' ranges with the same SQL (``rows(ids:on:)``, ``rows(from:through:on:)``).
public struct PostgresKeysetLoader<Item: Hashable & DataSourceComparable & Sendable>: PageLoader {
    /// The cursor: after or before a row's key.
    public typealias Cursor = KeysetCursor<PostgresKey>

    /// Rows per page.
    public var limit: Int { keyset.limit }
    /// The client that runs the page queries.
    public let client: PostgresClient
    /// A row's key: its values of the order's columns.
    public let key: @Sendable (Item) -> PostgresKey
    let sql: KeysetSQL
    let decode: @Sendable (PostgresRow) throws -> Item
    let logger: Logger
    private let keyset: KeysetLoader<Item, PostgresKey>

    /// Creates a loader; nothing is read until the first page.
    ///
    /// - Parameters:
    ///   - client: the connection pool the pages are read through (its `run()` must be
    ///     running).
    ///   - relation: the table or view, optionally `schema.name`.
    ///   - columns: the columns `decode` reads, in that order.
    ///   - orderBy: the list's order, ending with a unique column.
    ///   - idColumn: the column that holds the items' ids (for ``rows(ids:on:)``).
    ///   - limit: rows per page, at least 1.
    ///   - key: a row's values of the `orderBy` columns, in order.
    ///   - decode: an item from a row of `columns`.
    ///   - logger: where queries are logged.
    /// - Throws: ``PostgresListError`` for a name that is not a plain identifier, or an
    ///   empty order.
    /// - Complexity: O(columns).
    public init(
        client: PostgresClient,
        relation: String,
        columns: [String],
        orderBy: [PostgresOrderColumn],
        idColumn: String,
        limit: Int,
        key: @escaping @Sendable (Item) -> PostgresKey,
        decode: @escaping @Sendable (PostgresRow) throws -> Item,
        logger: Logger = Logger(label: "ListEnginePostgres")
    ) throws(PostgresListError) {
        guard !orderBy.isEmpty else { throw .badKey(expected: 1, got: 0) }
        let sql = KeysetSQL(
            relation: try PostgresIdentifier(relation),
            columns: try columns.map { name throws(PostgresListError) in try PostgresIdentifier(name) },
            order: orderBy,
            idColumn: try PostgresIdentifier(idColumn)
        )
        self.sql = sql
        self.client = client
        self.key = key
        self.decode = decode
        self.logger = logger
        keyset = KeysetLoader(limit: limit, key: key) { cursor, count in
            try await Self.rows(at: cursor, count: count, sql: sql, client: client, decode: decode, logger: logger)
        }
    }

    /// The rows a page at `cursor` is made of, as `KeysetLoader`'s `fetch` reads them:
    /// up to `count` rows right after the key (`.after`), right before it (`.before`,
    /// the nearest), before it and at it (`.through`), or the first rows (`nil`).
    ///
    /// For an app that pages with its own `KeysetLoader` (its own key type) and reads
    /// the rows here.
    /// - Parameters:
    ///   - cursor: where the rows are.
    ///   - count: the most rows to read.
    /// - Returns: the rows, nearest to the cursor first for `.before` and `.through`,
    ///   in the order otherwise.
    /// - Throws: what PostgreSQL or `decode` throws.
    /// - Complexity: one query of at most `count` rows.
    public func rows(at cursor: Cursor?, count: Int) async throws -> [Item] {
        try await Self.rows(at: cursor, count: count, sql: sql, client: client, decode: decode, logger: logger)
    }

    private static func rows(
        at cursor: Cursor?, count: Int, sql: KeysetSQL, client: PostgresClient,
        decode: @Sendable (PostgresRow) throws -> Item, logger: Logger
    ) async throws -> [Item] {
        var bindings = PostgresBindings()
        let query: String
        switch cursor {
        case nil:
            query = "SELECT \(sql.selectList) FROM \(sql.relation.sql) \(sql.orderBy(reversed: false)) LIMIT \(count)"
        case .after(let key)?:
            let condition = try sql.condition(key, before: false, inclusive: false, into: &bindings)
            query = "SELECT \(sql.selectList) FROM \(sql.relation.sql) WHERE \(condition) \(sql.orderBy(reversed: false)) LIMIT \(count)"
        case .before(let key)?, .through(let key)?:
            let inclusive = if case .through? = cursor { true } else { false }
            let condition = try sql.condition(key, before: true, inclusive: inclusive, into: &bindings)
            query = "SELECT \(sql.selectList) FROM \(sql.relation.sql) WHERE \(condition) \(sql.orderBy(reversed: true)) LIMIT \(count)"
        }
        var items: [Item] = []
        for try await row in try await client.query(PostgresQuery(unsafeSQL: query, binds: bindings), logger: logger) {
            items.append(try decode(row))
        }
        return items
    }

    /// Loads the page at `cursor`: the first rows, or the rows after or before a key.
    ///
    /// - Parameter cursor: where the page is; `nil` for the first page.
    /// - Returns: the page, as `KeysetLoader.loadPage(at:)` returns it.
    /// - Throws: what PostgreSQL or `decode` throws.
    /// - Complexity: one query of at most ``limit`` + 1 rows.
    public func loadPage(at cursor: Cursor?) async throws -> Page<Item, Cursor> {
        try await keyset.loadPage(at: cursor)
    }

    /// The rows with these ids, in one query (`WHERE id = ANY($1)`), on `connection`.
    ///
    /// - Parameters:
    ///   - ids: the ids; those with no row are left out of the answer.
    ///   - connection: where to run it.
    /// - Returns: the rows found, in no particular order.
    /// - Throws: what PostgreSQL or `decode` throws.
    /// - Complexity: one query; an index on the id column makes it O(*k* log *n*).
    public func rows<ID: PostgresArrayEncodable & Sendable>(ids: [ID], on connection: PostgresConnection) async throws -> [Item] {
        var bindings = PostgresBindings()
        try bindings.append(ids)
        let query = "SELECT \(sql.selectList) FROM \(sql.relation.sql) WHERE \(sql.idColumn.sql) = ANY($1)"
        return try await run(PostgresQuery(unsafeSQL: query, binds: bindings), on: connection)
    }

    /// The rows from the row keyed `first` through the row keyed `last`, both included,
    /// on `connection`; `nil` leaves that end open. What a window between those rows
    /// holds now.
    ///
    /// - Parameters:
    ///   - first: the first key, or `nil` for the start of the list.
    ///   - last: the last key, or `nil` for its end.
    ///   - connection: where to run it.
    /// - Returns: the rows in the order.
    /// - Throws: what PostgreSQL or `decode` throws.
    /// - Complexity: one query, reading about the rows returned with an index on the
    ///   order.
    public func rows(from first: PostgresKey?, through last: PostgresKey?, on connection: PostgresConnection) async throws -> [Item] {
        var bindings = PostgresBindings()
        var conditions: [String] = []
        if let first { conditions.append(try sql.condition(first, before: false, inclusive: true, into: &bindings)) }
        if let last { conditions.append(try sql.condition(last, before: true, inclusive: true, into: &bindings)) }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let query = "SELECT \(sql.selectList) FROM \(sql.relation.sql) \(filter) \(sql.orderBy(reversed: false))"
        return try await run(PostgresQuery(unsafeSQL: query, binds: bindings), on: connection)
    }

    private func run(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> [Item] {
        var items: [Item] = []
        for try await row in try await connection.query(query, logger: logger) {
            items.append(try decode(row))
        }
        return items
    }
}

import Foundation
import ListEngine
import ListEnginePostgres
import ListPagination
import Logging
import PostgresNIO
import Synchronization
import Testing

/// A row of the test tables: `id text COLLATE "C" PRIMARY KEY, score integer NOT NULL,
/// name text NOT NULL`, ordered `score DESC, id`.
struct Row: Hashable, DataSourceComparable, Sendable, CustomStringConvertible {
    var id: String
    var score: Int
    var name: String

    static func < (lhs: Row, rhs: Row) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
    }

    var description: String { "\(id)(\(score))" }
}

/// The database the tests use: `LISTENGINE_POSTGRES_URL`, or the private cluster that
/// `Examples/web-demo/Scripts/postgres.sh start` runs (started here when needed).
enum Database {
    static let logger = Logger(label: "ListEnginePostgresTests")

    static let url: PostgresURL = {
        if let text = ProcessInfo.processInfo.environment["LISTENGINE_POSTGRES_URL"], let url = try? PostgresURL(text) { return url }
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../../Examples/web-demo/Scripts/postgres.sh").standardized
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "start"]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { fatalError("cannot run \(script.path): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, let url = try? PostgresURL(last) else {
            fatalError("postgres.sh start failed (status \(process.terminationStatus)): \(last)")
        }
        return url
    }()

    /// Runs `body` with a connection pool that runs meanwhile.
    static func withClient<T: Sendable>(_ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: url.clientConfiguration)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Runs `body` with one connection.
    static func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration, id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs SQL statements, one by one.
    static func execute(_ statements: String..., on connection: PostgresConnection) async throws {
        for statement in statements {
            _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    /// A fresh table named `name` (dropped first) holding `rows`.
    static func makeTable(_ name: String, rows: [Row], on connection: PostgresConnection) async throws {
        try await execute(
            "DROP TABLE IF EXISTS \(name)",
            "CREATE TABLE \(name) (id text COLLATE \"C\" PRIMARY KEY, score integer NOT NULL, name text NOT NULL)",
            "CREATE INDEX ON \(name) (score DESC, id)",
            on: connection
        )
        for chunk in stride(from: 0, to: rows.count, by: 500) {
            let part = rows[chunk ..< min(rows.count, chunk + 500)]
            var bindings = PostgresBindings()
            var values: [String] = []
            for row in part {
                bindings.append(row.id)
                bindings.append(row.score)
                bindings.append(row.name)
                values.append("($\(bindings.count - 2), $\(bindings.count - 1), $\(bindings.count))")
            }
            _ = try await connection.query(PostgresQuery(unsafeSQL: "INSERT INTO \(name) (id, score, name) VALUES " + values.joined(separator: ", "), binds: bindings), logger: logger)
        }
    }

    /// Every row of `table`, in the order.
    static func rows(of table: String, on connection: PostgresConnection) async throws -> [Row] {
        var rows: [Row] = []
        let query = PostgresQuery(unsafeSQL: "SELECT id, score, name FROM \(table) ORDER BY score DESC, id")
        for try await (id, score, name) in try await connection.query(query, logger: logger).decode((String, Int, String).self) {
            rows.append(Row(id: id, score: score, name: name))
        }
        return rows
    }

    /// A loader of `table`'s rows, ordered `score DESC, id`.
    static func loader(_ client: PostgresClient, table: String, limit: Int) throws -> PostgresKeysetLoader<Row> {
        try PostgresKeysetLoader<Row>(
            client: client, relation: table, columns: ["id", "score", "name"],
            orderBy: [.descending("score"), .ascending("id")], idColumn: "id", limit: limit,
            key: { PostgresKey($0.score, $0.id) },
            decode: { row in
                let (id, score, name) = try row.decode((String, Int, String).self)
                return Row(id: id, score: score, name: name)
            }
        )
    }

    /// `count` rows with scores from a small range (many ties), ids `r0000`…, seeded.
    static func sampleRows(_ count: Int, seed: UInt64) -> [Row] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0 ..< count).map { index in
            Row(id: String(format: "r%04d", index), score: Int(next() % 200), name: "player \(index)")
        }
    }
}

/// Whether a paginator loads in neither direction.
func isSettled(_ status: PaginationStatus) -> Bool {
    func isLoading(_ state: PaginationState) -> Bool { if case .loading = state { true } else { false } }
    return !isLoading(status.append) && !isLoading(status.prepend)
}

/// Waits until `condition` holds, for at most `seconds`; records an issue otherwise.
func eventually(_ what: String, within seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("\(what): not within \(seconds) s", sourceLocation: sourceLocation)
}

import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, from a URL: `postgres://user[:password]@host[:port]/database`
/// (`postgresql://` too), without TLS, as a local or private-network server is reached.
///
/// ```swift
/// let url = try PostgresURL("postgres://postgres@127.0.0.1:55432/listengine")
/// let client = PostgresClient(configuration: url.clientConfiguration)
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The server's host name or address.
    public let host: String
    /// The server's port (5432 when the URL has none).
    public let port: Int
    /// The user name.
    public let username: String
    /// The password, if the URL has one.
    public let password: String?
    /// The database.
    public let database: String

    /// Reads `string`.
    ///
    /// - Parameter string: `postgres://user[:password]@host[:port]/database`.
    /// - Throws: ``PostgresListError/badURL(_:)``.
    /// - Complexity: O(length of `string`).
    public init(_ string: String) throws(PostgresListError) {
        guard let components = URLComponents(string: string), components.scheme == "postgres" || components.scheme == "postgresql",
              let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else { throw .badURL(string) }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw .badURL(string) }
        self.host = host
        port = components.port ?? 5432
        username = user
        password = components.password
        self.database = database
    }

    /// The configuration of a single connection (a ``PostgresChangeFeed``'s).
    public var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }

    /// The configuration of a connection pool (a ``PostgresKeysetLoader``'s).
    public var clientConfiguration: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }

    /// The URL, without the password.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }
}

/// Loads pages named by an opaque server cursor: `?cursor=C&limit=L`.
///
/// Each response carries the cursor of the page after it; the list ends at a `nil`
/// (or absent) cursor. A keyset cursor names a position by the last row's sort key, not
/// by offset, so rows inserted or deleted ahead of it neither repeat nor skip rows.
///
/// A server that can page backwards also names the page before (`previousCursor`;
/// `nil` at the start of the list), so that ``Paginator/loadPreviousPage()`` and a
/// window (``Paginator/maxLoadedRows``) can load it. `fetch` is then given that token
/// too, and must tell it from a next-page token: by the server's encoding, or by a
/// `Token` type that says the direction (``KeysetLoader`` does this for keys).
///
/// ```swift
/// let loader = CursorLoader<Player, String>(limit: 50) { cursor, limit in
///     let response = try await api.players(after: cursor, limit: limit)
///     return .init(items: response.data, nextCursor: response.pagination.nextCursor)
/// }
/// ```
public struct CursorLoader<Item: Hashable & DataSourceComparable, Token: Sendable>: PageLoader {
    /// The cursor type.
    public typealias Cursor = Token

    /// What one request returns.
    public struct Response: Sendable {
        /// The rows of the page.
        public var items: [Item]
        /// The cursor of the next page; `nil` when this is the last page.
        public var nextCursor: Token?
        /// The cursor of the page before; `nil` when this page starts the list, or the
        /// server cannot page backwards.
        public var previousCursor: Token?

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - items: the rows of the page.
        ///   - nextCursor: the cursor of the next page; `nil` when this is the last page.
        ///   - previousCursor: the cursor of the page before; `nil` (the default) when
        ///     this page starts the list, or the server cannot page backwards.
        /// - Complexity: O(1).
        public init(items: [Item], nextCursor: Token?, previousCursor: Token? = nil) {
            self.items = items
            self.nextCursor = nextCursor
            self.previousCursor = previousCursor
        }
    }

    /// Rows per page, passed to `fetch`.
    public let limit: Int
    private let fetch: @Sendable (_ cursor: Token?, _ limit: Int) async throws -> Response

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - limit: rows per page, at least 1.
    ///   - fetch: loads the page after `cursor` (the first page when `nil`).
    /// - Complexity: O(1); nothing is loaded until the first ``loadPage(at:)``.
    public init(limit: Int, fetch: @escaping @Sendable (_ cursor: Token?, _ limit: Int) async throws -> Response) {
        precondition(limit >= 1, "CursorLoader needs a limit of at least 1, got \(limit)")
        self.limit = limit
        self.fetch = fetch
    }

    /// Loads the page after `cursor` (the first page when `nil`).
    ///
    /// - Parameter cursor: the server's cursor of the page; `nil` for the first page.
    /// - Returns: the page's rows, the server's cursor of the next page (`nil` after
    ///   the last page) and of the page before (`nil` at the start, or when the server
    ///   does not say).
    /// - Throws: whatever `fetch` throws.
    /// - Complexity: O(1), plus the work of `fetch`.
    public func loadPage(at cursor: Token?) async throws -> Page<Item, Token> {
        let response = try await fetch(cursor, limit)
        return Page(items: response.items, nextCursor: response.nextCursor, previousCursor: response.previousCursor)
    }
}

/// Loads rows by position: `?offset=O&limit=L`.
///
/// The cursor is the offset of the next row. The list ends when the offset reaches
/// `totalItems` (if the response gives it) or at the first short (or empty) page. The
/// page before offset *o* starts at *o* − ``limit`` (at least 0).
///
/// Offset paging names rows by position, so it is only as stable as the data:
/// - rows **inserted** ahead of the current offset shift earlier rows into the next
///   page; since the paginator adds pages with `ListDataSource.add(_:)`, such a row
///   is kept once, not duplicated;
/// - rows **deleted** ahead of the current offset shift unseen rows back into the page
///   already loaded, and those rows are **skipped**. Use cursor (keyset) paging —
///   ``KeysetLoader``, ``CursorLoader`` or ``HTTPPageLoader`` in `.cursor` mode — when
///   that matters.
///
/// For the same reason a window over offsets (``Paginator/maxLoadedRows``) is
/// approximate: a page loaded again after it was dropped may repeat or skip rows.
public struct OffsetLoader<Item: Hashable & DataSourceComparable>: PageLoader {
    /// What one request returns.
    public struct Response: Sendable {
        /// The rows from the requested offset on.
        public var items: [Item]
        /// The number of rows in the whole list, if the server says.
        public var totalItems: Int?

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - items: the rows from the requested offset on.
        ///   - totalItems: the number of rows in the whole list, if the server says.
        /// - Complexity: O(1).
        public init(items: [Item], totalItems: Int? = nil) {
            self.items = items
            self.totalItems = totalItems
        }
    }

    /// Rows per page.
    public let limit: Int
    private let fetch: @Sendable (_ offset: Int, _ limit: Int) async throws -> Response

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - limit: rows per page, at least 1.
    ///   - fetch: loads up to `limit` rows from `offset` on.
    /// - Complexity: O(1); nothing is loaded until the first ``loadPage(at:)``.
    public init(limit: Int, fetch: @escaping @Sendable (_ offset: Int, _ limit: Int) async throws -> Response) {
        precondition(limit >= 1, "OffsetLoader needs a limit of at least 1, got \(limit)")
        self.limit = limit
        self.fetch = fetch
    }

    /// Loads the rows from offset `cursor` on (from 0 when `nil`).
    ///
    /// - Parameter cursor: the offset of the first row to load; `nil` for 0.
    /// - Returns: the rows, their `totalItems`, and the offset after them, or `nil` as the
    ///   next cursor when the page was empty, shorter than ``limit`` (without a total) or
    ///   reached `totalItems`; the offset of the page before, `nil` at offset 0.
    /// - Throws: whatever `fetch` throws.
    /// - Complexity: O(1), plus the work of `fetch`.
    public func loadPage(at cursor: Int?) async throws -> Page<Item, Int> {
        let offset = cursor ?? 0
        let response = try await fetch(offset, limit)
        let next = Self.offsetAfter(offset, count: response.items.count, limit: limit, totalItems: response.totalItems)
        return Page(items: response.items, nextCursor: next, previousCursor: Self.offsetBefore(offset, limit: limit), totalItems: response.totalItems)
    }

    /// The offset of the page before the one at `offset`, or `nil` at the start.
    static func offsetBefore(_ offset: Int, limit: Int) -> Int? {
        offset > 0 ? max(0, offset - limit) : nil
    }

    /// The offset after a page of `count` rows at `offset`, or `nil` when it was the last.
    static func offsetAfter(_ offset: Int, count: Int, limit: Int, totalItems: Int?) -> Int? {
        guard count > 0 else { return nil }
        let next = offset + count
        if let totalItems { return next < totalItems ? next : nil }
        return count < limit ? nil : next
    }
}

/// Loads numbered pages of a fixed size: `?page=N&limit=L`.
///
/// The cursor is the page number. The list ends after `totalPages` pages when the
/// response gives a total, otherwise at the first short (or empty) page. The page
/// before page *n* is *n* − 1, down to ``firstPage``.
///
/// Page numbers name rows by position: rows inserted or deleted meanwhile shift rows
/// across page boundaries, so a page loaded again (by a window, see
/// ``Paginator/maxLoadedRows``) may repeat rows, which the data source keeps once, or
/// skip some. Windows over page numbers are approximate; use keyset paging
/// (``KeysetLoader``) to keep them exact.
///
/// ```swift
/// let loader = PageNumberLoader<Player>(limit: 50) { page, limit in
///     let response = try await api.players(page: page, limit: limit)
///     return .init(items: response.data, totalPages: response.pagination.totalPages)
/// }
/// ```
public struct PageNumberLoader<Item: Hashable & DataSourceComparable>: PageLoader {
    /// What one request returns.
    public struct Response: Sendable {
        /// The rows of the page.
        public var items: [Item]
        /// The number of pages, if the server says.
        public var totalPages: Int?

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - items: the rows of the page.
        ///   - totalPages: the number of pages, if the server says.
        /// - Complexity: O(1).
        public init(items: [Item], totalPages: Int? = nil) {
            self.items = items
            self.totalPages = totalPages
        }
    }

    /// The number of the first page (1 for most APIs).
    public let firstPage: Int
    /// Rows per page.
    public let limit: Int
    private let fetch: @Sendable (_ page: Int, _ limit: Int) async throws -> Response

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - firstPage: the number of the first page; 1 by default.
    ///   - limit: rows per page, at least 1.
    ///   - fetch: loads page `page` of `limit` rows.
    /// - Complexity: O(1); nothing is loaded until the first ``loadPage(at:)``.
    public init(firstPage: Int = 1, limit: Int, fetch: @escaping @Sendable (_ page: Int, _ limit: Int) async throws -> Response) {
        precondition(limit >= 1, "PageNumberLoader needs a limit of at least 1, got \(limit)")
        self.firstPage = firstPage
        self.limit = limit
        self.fetch = fetch
    }

    /// Loads page `cursor` (the first page when `nil`).
    ///
    /// - Parameter cursor: the number of the page to load; `nil` for ``firstPage``.
    /// - Returns: the page's rows, its `totalPages`, and the next page number, or `nil` as
    ///   the next cursor when the page was empty, the last of `totalPages`, or (without a
    ///   total) shorter than ``limit``; the previous page number, `nil` for ``firstPage``.
    /// - Throws: whatever `fetch` throws.
    /// - Complexity: O(1), plus the work of `fetch`.
    public func loadPage(at cursor: Int?) async throws -> Page<Item, Int> {
        let page = cursor ?? firstPage
        let response = try await fetch(page, limit)
        let next = Self.pageAfter(page, firstPage: firstPage, count: response.items.count, limit: limit, totalPages: response.totalPages)
        return Page(items: response.items, nextCursor: next, previousCursor: page > firstPage ? page - 1 : nil, totalPages: response.totalPages)
    }

    /// The page after `page`, or `nil` when `page` was the last.
    ///
    /// An empty page is always the last; with a total, page number `totalPages` (counted
    /// from `firstPage`) is the last; without one, a page shorter than `limit` is.
    static func pageAfter(_ page: Int, firstPage: Int, count: Int, limit: Int, totalPages: Int?) -> Int? {
        guard count > 0 else { return nil }
        if let totalPages { return page - firstPage + 1 < totalPages ? page + 1 : nil }
        return count < limit ? nil : page + 1
    }
}

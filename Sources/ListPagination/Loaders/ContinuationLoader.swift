/// Loads pages where each page carries the closure that loads the next one.
///
/// This is the recursive-producer style: the first load returns some rows and,
/// unless it was the last page, a `next` closure; the paginator keeps that closure as
/// its cursor and calls it for the next page. A retry calls the same closure again.
///
/// ```swift
/// @Sendable func page(from start: Int) -> ContinuationPage<Row> {
///     ContinuationPage(items: rows(start..<start + 20),
///                      next: start + 20 < 100 ? { @Sendable in page(from: start + 20) } : nil)
/// }
/// let loader = ContinuationLoader { page(from: 0) }
/// ```
public struct ContinuationLoader<Item: Hashable & DataSourceComparable>: PageLoader {
    /// The cursor: the closure that loads the next page.
    public typealias Cursor = ContinuationPage<Item>.Next

    private let first: ContinuationPage<Item>.Next

    /// Creates a loader.
    ///
    /// - Parameter first: loads the first page.
    /// - Complexity: O(1); nothing is loaded until the first ``loadPage(at:)``.
    public init(first: @escaping ContinuationPage<Item>.Next) {
        self.first = first
    }

    /// Calls `cursor` (or the first-page closure when `nil`).
    ///
    /// - Parameter cursor: the closure that loads the page; `nil` for the first page.
    /// - Returns: the page's rows and, unless it is the last page, the closure that loads
    ///   the next one.
    /// - Throws: whatever the closure throws.
    /// - Complexity: O(1), plus the closure's work.
    public func loadPage(at cursor: Cursor?) async throws -> Page<Item, Cursor> {
        let page = try await (cursor ?? first)()
        return Page(items: page.items, nextCursor: page.next)
    }
}

/// A page of a ``ContinuationLoader``: rows and the closure that loads the next page.
public struct ContinuationPage<Item: Hashable & DataSourceComparable>: Sendable {
    /// Loads a page.
    public typealias Next = @Sendable () async throws -> ContinuationPage<Item>

    /// The rows of the page.
    public var items: [Item]
    /// Loads the next page; `nil` when this is the last.
    public var next: Next?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: the rows.
    ///   - next: loads the next page; `nil` when this is the last.
    /// - Complexity: O(1).
    public init(items: [Item], next: Next?) {
        self.items = items
        self.next = next
    }
}

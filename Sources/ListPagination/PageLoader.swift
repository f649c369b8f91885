/// A source of pages: given the cursor of a page, it loads that page.
///
/// The cursor is whatever names a position in the list: a page number, an offset, an
/// opaque server token, or a closure that loads the next page. `nil` asks for the first
/// page. A loader is stateless from the paginator's point of view: loading the same
/// cursor again (a retry) must ask for the same page.
///
/// Ready-made loaders: ``PageNumberLoader`` (page + limit), ``OffsetLoader``
/// (offset + limit), ``CursorLoader`` (server cursor), ``ContinuationLoader`` (each
/// page carries the loader of the next) and ``HTTPPageLoader`` (JSON over HTTP).
///
/// ```swift
/// struct NumbersLoader: PageLoader {
///     func loadPage(at cursor: Int?) async throws -> Page<DataSourceItem<Int>, Int> {
///         let start = cursor ?? 0
///         let items = (start..<start + 10).map { DataSourceItem(uid: "\($0)", value: $0, index: Double($0)) }
///         return Page(items: items, nextCursor: start + 10 < 100 ? start + 10 : nil)
///     }
/// }
/// ```
public protocol PageLoader<Item, Cursor>: Sendable {
    /// The rows the pages hold.
    associatedtype Item: Hashable & DataSourceComparable
    /// What names a page.
    associatedtype Cursor: Sendable

    /// Loads the page at `cursor`, or the first page when `cursor` is `nil`.
    ///
    /// Throw a ``PaginationError`` to say precisely what went wrong; any other error is
    /// mapped with ``PaginationError/init(_:url:)``. A loader should stop promptly when
    /// its task is cancelled.
    /// - Parameter cursor: the page to load; `nil` for the first page.
    /// - Returns: the page and the cursor of the next page (`nil`: no more pages).
    /// - Throws: why the page could not be loaded, preferably a ``PaginationError``;
    ///   a paginator maps any other error with ``PaginationError/init(_:url:)``.
    func loadPage(at cursor: Cursor?) async throws -> Page<Item, Cursor>
}

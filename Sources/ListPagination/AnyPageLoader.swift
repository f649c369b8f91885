/// A ``PageLoader`` of any type with the given item and cursor types, so that the type
/// of whatever holds it does not name the loader.
///
/// ``ListPaginator`` is a ``Paginator`` of one of these:
///
/// ```swift
/// final class PlayersScreen {
///     let paginator: ListPaginator<Player, HTTPPageCursor>
///
///     init(api: HTTPPageLoader<Player>) {
///         paginator = ListPaginator(loader: AnyPageLoader(api))
///     }
/// }
/// ```
public struct AnyPageLoader<Item: Hashable & DataSourceComparable, Cursor: Sendable>: PageLoader {
    private let _load: @Sendable (_ cursor: Cursor?) async throws -> Page<Item, Cursor>

    /// Wraps `loader`.
    ///
    /// - Parameter loader: the loader that loads the pages; an `AnyPageLoader` is kept
    ///   as it is rather than wrapped again.
    /// - Complexity: O(1).
    public init<Loader: PageLoader>(_ loader: Loader) where Loader.Item == Item, Loader.Cursor == Cursor {
        if let erased = loader as? AnyPageLoader<Item, Cursor> {
            self = erased
        } else {
            _load = { cursor in try await loader.loadPage(at: cursor) }
        }
    }

    /// A loader that calls `load`.
    ///
    /// - Parameter load: loads the page at a cursor, or the first page for `nil`, as
    ///   ``PageLoader/loadPage(at:)`` does.
    /// - Complexity: O(1).
    public init(_ load: @escaping @Sendable (_ cursor: Cursor?) async throws -> Page<Item, Cursor>) {
        _load = load
    }

    /// Loads the page at `cursor` with the wrapped loader.
    ///
    /// - Parameter cursor: the page to load; `nil` for the first page.
    /// - Returns: what the wrapped loader returns.
    /// - Throws: what the wrapped loader throws.
    /// - Complexity: O(1), plus the wrapped loader's work.
    public func loadPage(at cursor: Cursor?) async throws -> Page<Item, Cursor> {
        try await _load(cursor)
    }
}

/// A ``Paginator`` whose type names only its items and cursors: its loader is an
/// ``AnyPageLoader`` and its clock the continuous clock.
///
/// For a stored property, where `Paginator<HTTPPageLoader<Player>, ContinuousClock>` is
/// long to write and ties the property to one loader type:
///
/// ```swift
/// let paginator: ListPaginator<Player, HTTPPageCursor>
/// paginator = ListPaginator(loader: AnyPageLoader(HTTPPageLoader<Player>(url: url, mode: .cursor)))
/// ```
///
/// Tests that drive the clock by hand use `Paginator<AnyPageLoader<Item, Cursor>, ManualClock>`.
public typealias ListPaginator<Item: Hashable & DataSourceComparable, Cursor: Sendable> = Paginator<AnyPageLoader<Item, Cursor>, ContinuousClock>

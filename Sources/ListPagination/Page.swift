/// One page of items and the cursors of the pages after and before it.
///
/// A loader returns a page for a cursor; the ``Paginator`` adds the items to its data
/// source and asks for `nextCursor` next. A `nil` `nextCursor` means there are no more
/// pages: the paginator becomes ``PaginationState/exhausted``. A loader that can page
/// backwards names the page before in `previousCursor` (`nil`: this page starts the
/// list); ``Paginator/loadPreviousPage()`` and a window that dropped rows at its top
/// load it (see ``Paginator``). A loader whose server
/// says how long the whole list is reports it in ``totalItems`` and ``totalPages``; the
/// paginator shows them in ``PaginationStatus``.
///
/// ```swift
/// Page(items: players, nextCursor: players.count < 50 ? nil : page + 1, totalItems: response.total)
/// ```
public struct Page<Item, Cursor> {
    /// The items of the page, in any order (the data source sorts them).
    public var items: [Item]
    /// The cursor of the next page, or `nil` when this is the last page.
    public var nextCursor: Cursor?
    /// The cursor of the page before this one, or `nil` when this page starts the list.
    ///
    /// Loading it must return the rows that come right before this page's first row,
    /// in the list's order.
    public var previousCursor: Cursor?
    /// The number of items in the whole list, when the server says.
    public var totalItems: Int?
    /// The number of pages in the whole list, when the server says.
    public var totalPages: Int?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: the items of the page.
    ///   - nextCursor: the cursor of the next page; `nil` when this is the last page.
    ///   - previousCursor: the cursor of the page before this one; `nil` (the default)
    ///     when this page starts the list, or when the loader cannot page backwards.
    ///   - totalItems: the number of items in the whole list, when the server says;
    ///     `nil` by default.
    ///   - totalPages: the number of pages in the whole list, when the server says;
    ///     `nil` by default.
    /// - Complexity: O(1).
    public init(items: [Item], nextCursor: Cursor?, previousCursor: Cursor? = nil, totalItems: Int? = nil, totalPages: Int? = nil) {
        self.items = items
        self.nextCursor = nextCursor
        self.previousCursor = previousCursor
        self.totalItems = totalItems
        self.totalPages = totalPages
    }

    /// Whether this is the last page (`nextCursor` is `nil`).
    ///
    /// - Complexity: O(1).
    public var isLast: Bool { nextCursor == nil }

    /// Whether this page starts the list (`previousCursor` is `nil`).
    ///
    /// - Complexity: O(1).
    public var isFirst: Bool { previousCursor == nil }
}

extension Page: Sendable where Item: Sendable, Cursor: Sendable {}
extension Page: Equatable where Item: Equatable, Cursor: Equatable {}

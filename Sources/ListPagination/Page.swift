/// One page of items and the cursor of the page after it.
///
/// A loader returns a page for a cursor; the ``Paginator`` adds the items to its data
/// source and asks for `nextCursor` next. A `nil` `nextCursor` means there are no more
/// pages: the paginator becomes ``PaginationState/exhausted``.
///
/// ```swift
/// Page(items: players, nextCursor: players.count < 50 ? nil : page + 1)
/// ```
public struct Page<Item, Cursor> {
    /// The items of the page, in any order (the data source sorts them).
    public var items: [Item]
    /// The cursor of the next page, or `nil` when this is the last page.
    public var nextCursor: Cursor?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - items: the items of the page.
    ///   - nextCursor: the cursor of the next page; `nil` when this is the last page.
    public init(items: [Item], nextCursor: Cursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// Whether this is the last page (`nextCursor` is `nil`).
    ///
    /// - Complexity: O(1).
    public var isLast: Bool { nextCursor == nil }
}

extension Page: Sendable where Item: Sendable, Cursor: Sendable {}
extension Page: Equatable where Item: Equatable, Cursor: Equatable {}

/// Loads pages of a source that can list the rows after a row and the rows before it,
/// by the row's sort key (keyset paging).
///
/// The cursor is a ``KeysetCursor``: ``KeysetCursor/after(_:)`` a row's key for the
/// page that follows that row, ``KeysetCursor/before(_:)`` a row's key for the page
/// that precedes it. The loader builds them from the rows it gets — the next cursor
/// from the last row of a page, the previous cursor from the first — with `key`, and
/// asks `fetch` for one row more than ``limit`` to know whether another page follows
/// (precedes), so the end of the list costs no extra request.
///
/// This is the loader for windows (``Paginator/maxLoadedRows``): a key names a place in
/// the order, not a position, so pages stay exact while rows are inserted, deleted or
/// moved around them. A page loaded again after it was dropped starts right after (ends
/// right before) the row it is keyed on, whatever changed in between, and rows neither
/// repeat nor go missing. Page numbers and offsets (``PageNumberLoader``,
/// ``OffsetLoader``) only approximate that under concurrent changes.
///
/// `Item`'s `<` must order rows as their keys do, and keys must be unique (add the id to
/// the key when sort values tie, as `(score, id)`).
///
/// ```swift
/// let loader = KeysetLoader<Player, Player.Key>(limit: 50, key: \.key) { cursor, count in
///     switch cursor {
///     case nil: try await db.players(orderedBy: .rank, limit: count)
///     case .after(let key)?: try await db.players(after: key, limit: count)
///     case .before(let key)?: try await db.players(before: key, limit: count)  // the `count` nearest
///     case .through(let key)?: try await db.players(through: key, limit: count)  // the same, and the row keyed `key`
///     }
/// }
/// ```
public struct KeysetLoader<Item: Hashable & DataSourceComparable, Key: Sendable>: PageLoader {
    /// The cursor type.
    public typealias Cursor = KeysetCursor<Key>

    /// Rows per page.
    public let limit: Int
    private let key: @Sendable (Item) -> Key
    private let fetch: @Sendable (_ cursor: KeysetCursor<Key>?, _ count: Int) async throws -> [Item]

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - limit: rows per page, at least 1.
    ///   - key: the sort key of a row.
    ///   - fetch: loads up to `count` rows, in any order: the first rows of the list for
    ///     `nil`; the rows right after the row keyed `k` for `.after(k)`; the rows right
    ///     before it for `.before(k)` (the `count` nearest to it). The row keyed `k`
    ///     itself is not one of them, except for `.through(k)`, which is `.before(k)`
    ///     and that row (if there is one). `count` is ``limit`` + 1.
    /// - Complexity: O(1); nothing is loaded until the first ``loadPage(at:)``.
    public init(
        limit: Int,
        key: @escaping @Sendable (Item) -> Key,
        fetch: @escaping @Sendable (_ cursor: KeysetCursor<Key>?, _ count: Int) async throws -> [Item]
    ) {
        precondition(limit >= 1, "KeysetLoader needs a limit of at least 1, got \(limit)")
        self.limit = limit
        self.key = key
        self.fetch = fetch
    }

    /// Loads the page at `cursor`: the first rows, or the rows after or before a key.
    ///
    /// - Parameter cursor: where the page is; `nil` for the first page.
    /// - Returns: up to ``limit`` rows in their order; the next cursor (after the last
    ///   row), `nil` when no row follows; the previous cursor (before the first row),
    ///   `nil` when no row precedes. A page after a key has rows before it (the keyed
    ///   row, at least); a page before a key has rows after it. An empty page after
    ///   `k` (past the end) names `.through(k)` as the page before it (a
    ///   ``Paginator/jump(to:)`` there shows the last rows); any other empty page ends
    ///   the list in both directions.
    /// - Throws: whatever `fetch` throws.
    /// - Complexity: O(*k* log *k*) comparisons to order the *k* rows `fetch` returns,
    ///   plus the work of `fetch`.
    public func loadPage(at cursor: KeysetCursor<Key>?) async throws -> Page<Item, KeysetCursor<Key>> {
        var rows = try await fetch(cursor, limit + 1).sorted(by: <)
        let hasNext: Bool, hasPrevious: Bool
        switch cursor {
        case nil, .after?:
            hasNext = rows.count > limit
            if hasNext { rows.removeLast(rows.count - limit) }
            hasPrevious = cursor != nil
        case .before?, .through?:
            hasPrevious = rows.count > limit
            if hasPrevious { rows.removeFirst(rows.count - limit) }
            hasNext = true
        }
        guard let first = rows.first, let last = rows.last else {
            // Past the end: the rows up to the key come before.
            if case .after(let key)? = cursor { return Page(items: [], nextCursor: nil, previousCursor: .through(key)) }
            return Page(items: [], nextCursor: nil, previousCursor: nil)
        }
        return Page(
            items: rows,
            nextCursor: hasNext ? .after(key(last)) : nil,
            previousCursor: hasPrevious ? .before(key(first)) : nil
        )
    }
}

/// Where a ``KeysetLoader`` page is: after or before the row with a given sort key.
public enum KeysetCursor<Key: Sendable>: Sendable, CustomStringConvertible {
    /// The rows right after the row keyed `key`.
    case after(Key)
    /// The rows right before the row keyed `key`.
    case before(Key)
    /// The rows right before the row keyed `key`, and that row: the page before an
    /// empty page after `key`.
    case through(Key)

    /// The key the cursor is at.
    ///
    /// - Complexity: O(1).
    public var key: Key {
        switch self {
        case .after(let key), .before(let key), .through(let key): key
        }
    }

    /// `after K`, `before K` or `through K`.
    ///
    /// - Complexity: O(length of the key's description).
    public var description: String {
        switch self {
        case .after(let key): "after \(key)"
        case .before(let key): "before \(key)"
        case .through(let key): "through \(key)"
        }
    }
}

extension KeysetCursor: Equatable where Key: Equatable {}
extension KeysetCursor: Hashable where Key: Hashable {}

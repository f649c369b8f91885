/// A list's row order: the items' own `<`, or a comparator given by the caller.
///
/// The items' `<` is called directly, so code specialized for the item type inlines it:
/// a comparison then reads only the fields it compares. A comparator is a closure, and
/// each call through it copies both items in and out (retaining and releasing their
/// references), several times the cost of the comparison itself for small items.
/// Comparisons are the inner loop of every search, sort and merge of the rows, so the
/// default order is kept as `<` rather than wrapped in a closure.
@usableFromInline struct _RowOrder<Item: DataSourceComparable>: Sendable {
    /// The caller's comparator, or `nil` for the items' `<`.
    @usableFromInline let comparator: (@Sendable (Item, Item) -> Bool)?

    /// The items' own order, `<`.
    @inlinable static var natural: Self { Self(nil) }

    /// The order given by `comparator`, or the items' `<` when it is `nil`.
    @inlinable init(_ comparator: (@Sendable (Item, Item) -> Bool)?) {
        self.comparator = comparator
    }

    /// Whether `lhs` sorts before `rhs`.
    ///
    /// - Complexity: one call of `<` or of the comparator.
    @inlinable @inline(__always) func callAsFunction(_ lhs: Item, _ rhs: Item) -> Bool {
        if let comparator { return comparator(lhs, rhs) }
        return lhs < rhs
    }
}

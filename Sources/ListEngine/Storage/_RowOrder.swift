/// A list's row order: the items' own `<`, or a comparator given by the caller.
///
/// The items' `<` is called directly, so code specialized for the item type inlines it:
/// a comparison then reads only the fields it compares. A comparator is a closure, and
/// each call through it copies both items in and out (retaining and releasing their
/// references), several times the cost of the comparison itself for small items.
/// Comparisons are the inner loop of every search, sort and merge of the rows, so the
/// default order is kept as `<` rather than wrapped in a closure.
@usableFromInline struct _RowOrder<Item: DataSourceComparable>: Sendable {
    /// The caller's comparator; for the items' own order, a closure calling `<` that
    /// ``callAsFunction(_:_:)`` does not call.
    ///
    /// Neither optional nor passed through an optional on its way here: reading a
    /// closure out of an optional copies it (retaining and releasing its context at
    /// every comparison, and the two threads of a bulk edit compare with one context,
    /// so those atomic updates contend for one cache line), and a closure that went
    /// through an optional is called through reabstraction thunks.
    @usableFromInline let comparator: @Sendable (Item, Item) -> Bool

    /// Whether this is the items' own order, compared by calling `<` directly.
    @usableFromInline let isNatural: Bool

    /// For an order that compares a key computed from each item first (a sectioned
    /// list's section-major order): the positions of `items[range]` sorted stably in this
    /// order, computing each item's key once instead of at every comparison. `nil` for
    /// other orders, which sort through ``callAsFunction(_:_:)``.
    @usableFromInline let keyedSort: (@Sendable (_ items: [Item], _ range: Range<Int>) -> [Int32])?

    /// For the same orders as ``keyedSort``: the bound of `item` in `elements[low...]`
    /// (ascending in this order), computing `item`'s key once instead of at every
    /// comparison; see ``bound(of:_:in:from:)``. Not called for other orders
    /// (``hasKeyedBound`` is false).
    ///
    /// Not optional, as ``comparator`` is not: a closure read out of an optional is
    /// copied, its context retained and released at every search, by both threads of a
    /// bulk edit at once.
    @usableFromInline let keyedBound: @Sendable (_ item: Item, _ bound: _Bound, _ elements: [Item], _ low: Int) -> Int

    /// Whether ``keyedBound`` searches in this order.
    @usableFromInline let hasKeyedBound: Bool

    /// Which end of the elements equal to an item a search finds.
    @usableFromInline enum _Bound: Sendable {
        /// The first element that does not sort before the item.
        case lower
        /// The first element that the item sorts before.
        case upper
    }

    /// The items' own order, `<`.
    @inlinable static var natural: Self { Self(comparator: { $0 < $1 }, isNatural: true, keyedSort: nil, keyedBound: nil) }

    /// The order given by `comparator`; `keyedSort` and `keyedBound`, when given, must
    /// sort and search in the same order.
    @inlinable init(
        _ comparator: @escaping @Sendable (Item, Item) -> Bool, keyedSort: (@Sendable ([Item], Range<Int>) -> [Int32])? = nil,
        keyedBound: (@Sendable (Item, _Bound, [Item], Int) -> Int)? = nil
    ) {
        self.init(comparator: comparator, isNatural: false, keyedSort: keyedSort, keyedBound: keyedBound)
    }

    /// An order from its parts: `comparator` is not called when `isNatural` is true.
    @inlinable init(
        comparator: @escaping @Sendable (Item, Item) -> Bool, isNatural: Bool, keyedSort: (@Sendable ([Item], Range<Int>) -> [Int32])?,
        keyedBound: (@Sendable (Item, _Bound, [Item], Int) -> Int)?
    ) {
        self.comparator = comparator
        self.isNatural = isNatural
        self.keyedSort = keyedSort
        self.keyedBound = keyedBound ?? { _, _, elements, _ in elements.count }
        hasKeyedBound = keyedBound != nil
    }

    /// The first position from `low` in `elements`, ascending in this order, whose
    /// element does not sort before `item` (`.lower`), or that `item` sorts before
    /// (`.upper`); `elements.count` when there is none.
    ///
    /// - Complexity: O(log *m*) comparisons for *m* = `elements.count - low`; with
    ///   ``keyedBound``, one key computation for `item` and one per comparison.
    @inlinable func bound(of item: Item, _ bound: _Bound, in elements: [Item], from low: Int) -> Int {
        if hasKeyedBound { return keyedBound(item, bound, elements, low) }
        switch bound {
        case .lower: return _CountedBTree<Item>._partitioningIndex(of: elements, from: low) { !self($0, item) }
        case .upper: return _CountedBTree<Item>._partitioningIndex(of: elements, from: low) { self(item, $0) }
        }
    }

    /// The positions of `items[range]` in this order, stably (ties keep their order in
    /// `items`). Positions are `Int32`s: half the memory of `Int`s at the moment a bulk
    /// build peaks.
    ///
    /// - Complexity: O(*k* log *k*) comparisons for *k* items; with ``keyedSort``, *k*
    ///   key computations and O(*k* log *k*) comparisons of keys.
    @inlinable func sortedPositions(of items: [Item], _ range: Range<Int>) -> [Int32] {
        if let keyedSort { return keyedSort(items, range) }
        var order = range.map { Int32(truncatingIfNeeded: $0) }
        items.withUnsafeBufferPointer { items in
            order.sort { self(items[Int($0)], items[Int($1)]) }  // stable: ties keep arrival order
        }
        return order
    }

    /// Sorts `elements` stably by the item `key` gives each.
    ///
    /// - Complexity: as ``sortedPositions(of:_:)``, plus O(*k*) to gather the elements.
    @inlinable func sort<Element>(_ elements: inout [Element], by key: (Element) -> Item) {
        guard keyedSort != nil else {
            elements.sort { self(key($0), key($1)) }
            return
        }
        let positions = sortedPositions(of: elements.map(key), 0 ..< elements.count)
        elements = positions.map { [elements] in elements[Int($0)] }
    }

    /// Whether `lhs` sorts before `rhs`.
    ///
    /// - Complexity: one call of `<` or of the comparator.
    @inlinable @inline(__always) func callAsFunction(_ lhs: Item, _ rhs: Item) -> Bool {
        isNatural ? lhs < rhs : comparator(lhs, rhs)
    }
}

import Dispatch

/// Whole-list construction: the paths that build a list's rows and id index at once
/// instead of one item at a time.
///
/// They are only taken when they give exactly the rows the one-at-a-time meaning gives:
/// into an empty list any set of items with distinct ids (a stable sort places each
/// item after every item that does not sort after it, as upper-bound insertion does);
/// for ``replaceAll(with:)`` a set of items with distinct ids, no two of which tie,
/// because then the sorted arrangement is unique and the one-at-a-time result, being
/// sorted, must be it.
///
/// The loops work on positions and hashes (`Int`s) rather than on items wherever they
/// can: they move less memory, and where the engine is used from generic code (not
/// specialized for the item type) every item access is a call through the item type's
/// witness table, while `Int` code is always specialized and inlined.
extension _ListStorage {
    /// The result of ``_build(_:comparator:checkingTies:)``.
    @usableFromInline struct _Built {
        @usableFromInline var storage: _ListStorage
        /// Whether every row sorts strictly before the next (no two rows tie).
        @usableFromInline var isStrictlyIncreasing: Bool

        @inlinable init(storage: _ListStorage, isStrictlyIncreasing: Bool) {
            self.storage = storage
            self.isStrictlyIncreasing = isStrictlyIncreasing
        }
    }

    /// Builds storage holding `items`, ordered stably by `comparator`, or returns `nil`
    /// when two items share an id.
    ///
    /// - Parameters:
    ///   - checkingTies: whether to find out if two rows tie (one more comparison per
    ///     row); when `false`, `isStrictlyIncreasing` is not meaningful.
    ///   - stored: an index whose item is kept wherever it equals the new item of its id
    ///     (see ``_IDIndex/init(distinctItems:keepingEqualItemsOf:kept:)``).
    /// - Complexity: O(*n* log *n*) comparisons for *n* items (O(*n*) when they arrive
    ///   sorted), O(*n*) hashes and integer operations, plus O(*m*) for *m* entries in
    ///   `stored`.
    @inlinable static func _build(
        _ items: [Item], comparator: _RowOrder<Item>, checkingTies: Bool = true, keepingEqualItemsOf stored: _IDIndex<Item>? = nil
    ) -> _Built? {
        // Hashing the ids and checking them (or, keeping stored items, building the whole
        // id index) and the sort of each half of the rows need nothing from each other,
        // so large inputs do them on separate threads; the sorted halves are then merged,
        // and the trees of a large list built, each in halves on two threads (see
        // `_CountedBTree.init(count:fanout:concurrently:element:)`). An index built while
        // keeping stored items is built in one piece.
        let count = items.count
        precondition(count < Int(Int32.max), "a list holds fewer than 2^31 rows")
        let onTwoThreads = _EditStrategy.buildsOnTwoThreads(itemCount: count)
        // The index's entries by hash, or (keeping stored items) the index itself.
        let ids = LockedState<_IndexParts?>(nil)
        let halves = LockedState<[[Int32]]>([[], []])
        @Sendable func prepareIndex() {
            if let stored {
                var kept: [(index: Int, item: Item)] = []
                let index = _IDIndex(distinctItems: items, keepingEqualItemsOf: stored, kept: &kept)
                ids.withLock { $0 = index.map { .built($0, kept: kept) } }
            } else {
                let slots = _IDIndex<Item>._slotsByHash(distinctItems: items)
                ids.withLock { $0 = slots.map { .slots($0) } }
            }
        }
        /// The index, its leaves built where bulk edits copy them when it is large; `nil`
        /// when two items share an id. The slots are taken out of the lock, so that their
        /// memory goes once the index is built, before the rows are.
        func builtIndex() -> (index: _IDIndex<Item>, kept: [(index: Int, item: Item)])? {
            switch ids.withLock({ state in defer { state = nil }; return state }) {
            case nil: return nil
            case let .built(index, kept): return (index, kept)
            case let .slots(slots): return (_IDIndex(slots: slots, of: items, concurrently: onTwoThreads), [])
            }
        }
        // Items that arrive strictly increasing (a refresh in row order, say) need no sort
        // and have no ties: one pass of comparisons finds out.
        if checkingTies, _isStrictlyIncreasing(items, comparator: comparator) {
            prepareIndex()
            guard let (index, kept) = builtIndex() else { return nil }
            // Rows from the items, with any stored ones put back; those may sort otherwise.
            let rowItems = kept.isEmpty ? items : _replacing(kept, in: items)
            let tree = _CountedBTree(count: count, concurrently: onTwoThreads) { rowItems[$0] }
            let isStrictlyIncreasing = kept.isEmpty || _isStrictlyIncreasing(rowItems, comparator: comparator)
            let storage = _ListStorage(rows: tree, ids: index, comparator: comparator)
            storage._checkInvariants()
            return _Built(storage: storage, isStrictlyIncreasing: isStrictlyIncreasing)
        }
        if onTwoThreads {
            let middle = count / 2
            _forEachConcurrently(3) { part in
                switch part {
                case 0:
                    prepareIndex()
                case 1:
                    let order = comparator.sortedPositions(of: items, 0 ..< middle)
                    halves.withLock { $0[0] = order }
                default:
                    let order = comparator.sortedPositions(of: items, middle ..< count)
                    halves.withLock { $0[1] = order }
                }
            }
        } else {
            prepareIndex()
            halves.withLock { $0[0] = comparator.sortedPositions(of: items, 0 ..< count) }
        }
        guard let (index, kept) = builtIndex() else { return nil }
        // Take the halves out of the lock so that their memory goes as soon as they are merged.
        let order = _merged(items, halves.withLock { ($0.removeFirst(), $0.removeFirst()) }, comparator: comparator)
        // With stored items put back, the order holds only if they still sort strictly
        // increasing in it (then it is their unique sorted order).
        let items = kept.isEmpty ? items : _replacing(kept, in: items)
        let isStrictlyIncreasing = (checkingTies || !kept.isEmpty) && _isStrictlyIncreasing(items, order, comparator: comparator)
        let rows = _CountedBTree(count: order.count, concurrently: onTwoThreads) { items[Int(order[$0])] }
        let storage = _ListStorage(rows: rows, ids: index, comparator: comparator)
        storage._checkInvariants()
        return _Built(storage: storage, isStrictlyIncreasing: isStrictlyIncreasing)
    }

    /// What the first step of a build yields for the id index: the entries' hashes and
    /// items' positions by hash, or the whole index when stored items are kept.
    @usableFromInline enum _IndexParts: Sendable {
        case slots([_HashSlot])
        case built(_IDIndex<Item>, kept: [(index: Int, item: Item)])
    }

    /// `items` with `replacements[i].item` at position `replacements[i].index`.
    @inlinable static func _replacing(_ replacements: [(index: Int, item: Item)], in items: [Item]) -> [Item] {
        var items = items
        for (index, item) in replacements { items[index] = item }
        return items
    }

    /// Two sorted runs of positions merged stably: the first run's items come first
    /// among ties, as they arrived first.
    @inlinable static func _merged(_ items: [Item], _ runs: (first: [Int32], second: [Int32]), comparator: _RowOrder<Item>) -> [Int32] {
        let (first, second) = runs
        guard !first.isEmpty, !second.isEmpty else { return first.isEmpty ? second : first }
        var order: [Int32] = []
        order.reserveCapacity(first.count + second.count)
        // Each item is read into a local once, not once per comparison.
        var i = 0, j = 0
        var left = items[Int(first[0])], right = items[Int(second[0])]
        while true {
            if comparator(right, left) {
                order.append(second[j])
                j += 1
                guard j < second.count else { break }
                right = items[Int(second[j])]
            } else {
                order.append(first[i])
                i += 1
                guard i < first.count else { break }
                left = items[Int(first[i])]
            }
        }
        order.append(contentsOf: first[i...])
        order.append(contentsOf: second[j...])
        return order
    }

    /// Whether every item sorts strictly before the next.
    @inlinable static func _isStrictlyIncreasing(_ items: [Item], comparator: _RowOrder<Item>) -> Bool {
        guard var previous = items.first else { return true }
        for position in items.indices.dropFirst() {
            let item = items[position]
            if !comparator(previous, item) { return false }
            previous = item
        }
        return true
    }

    /// Whether every item in `order` sorts strictly before the next.
    @inlinable static func _isStrictlyIncreasing(_ items: [Item], _ order: [Int32], comparator: _RowOrder<Item>) -> Bool {
        guard var previous = order.first.map({ items[Int($0)] }) else { return true }
        for position in order.dropFirst() {
            let item = items[Int(position)]
            if !comparator(previous, item) { return false }
            previous = item
        }
        return true
    }

    /// The storage after inserting `items`, none of whose ids is present, with one
    /// merge of the rows and one merge of the id indexes; `nil` when that would not give
    /// the one-at-a-time result: an id repeats or is already present, or an item ties
    /// with a row or with another item (then its place depends on arrival order).
    ///
    /// Each item goes before the first row that sorts after it — its upper bound, as
    /// when inserted alone, since with no ties the items do not disturb each other.
    ///
    /// - Complexity: O(*n* + *k*) comparisons and copies plus O(*k* log *k*) comparisons
    ///   to sort the items, for *n* rows and *k* items.
    @inlinable func _inserting(_ items: [Item]) -> _ListStorage? {
        guard let built = Self._build(items, comparator: areInIncreasingOrder), built.isStrictlyIncreasing,
              let mergedIDs = _fullIndex._merging(built.storage._fullIndex) else { return nil }
        let less = areInIncreasingOrder
        var merged: [Item] = []
        merged.reserveCapacity(rows.count + items.count)
        var added = built.storage.rows.makeIterator()
        var next = added.next()
        for row in rows {
            while let item = next, less(item, row) {
                merged.append(item)
                next = added.next()
            }
            if let item = next, !less(row, item) { return nil }  // tie
            merged.append(row)
        }
        while let item = next {
            merged.append(item)
            next = added.next()
        }
        let storage = _ListStorage(rows: _CountedBTree(merged), ids: mergedIDs, comparator: less)
        storage._checkInvariants()
        return storage
    }

    /// Replaces the rows with `items`: the same as removing every id not among them and
    /// then adding them one at a time.
    ///
    /// When the items have distinct ids and no two of them tie, the result is their
    /// unique sorted arrangement, built at once; otherwise the items are applied one
    /// at a time.
    ///
    /// An item equal to the one stored under its id changes nothing, so the stored item
    /// stays, even where it differs in what `==` ignores.
    ///
    /// - Complexity: O(*k* log *k*) comparisons for *k* items (O(*k*) when they arrive in
    ///   row order), O(*k*) hashes and O(*n* + *k*) integer comparisons for *n* rows;
    ///   O(*n* + *k* log *n*) on the one-at-a-time path.
    @inlinable mutating func replaceAll(with items: [Item]) {
        if let built = Self._build(items, comparator: areInIncreasingOrder, keepingEqualItemsOf: _fullIndex), built.isStrictlyIncreasing {
            self = built.storage
            return
        }
        removeAll(notIn: Set(items.lazy.map { $0.id }))
        add(contentsOf: items)
    }
}

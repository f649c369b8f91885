import Dispatch
import Synchronization

/// Whole-list construction: the paths that build a list's rows and id index at once
/// instead of one item at a time.
///
/// They are only taken when they give exactly the rows the one-at-a-time meaning gives:
/// into an empty list any set of items with distinct ids (a stable sort places each
/// item after every item that does not sort after it, as upper-bound insertion does);
/// for ``replaceAll(with:)`` a set of items with distinct ids that no two of which tie,
/// because then the sorted arrangement is unique and the one-at-a-time result, being
/// sorted, must be it.
///
/// The loops work on positions and hashes (`Int`s) rather than on items wherever they
/// can: the storage is generic, so every item access costs a call through the item
/// type's witness table, while `Int` code is specialized and inlined.
extension _ListStorage {
    /// The result of ``_build(_:comparator:)``.
    struct _Built {
        var storage: _ListStorage
        /// Whether every row sorts strictly before the next (no two rows tie).
        var isStrictlyIncreasing: Bool
    }

    /// Builds storage holding `items`, ordered stably by `comparator`, or returns `nil`
    /// when two items share an id.
    ///
    /// - Complexity: O(*n* log *n*) comparisons for *n* items (O(*n*) when they arrive
    ///   sorted), O(*n*) hashes, O(*n* log *n*) integer comparisons.
    static func _build(_ items: [Item], comparator: @escaping Comparator) -> _Built? {
        // The id index (hash, check ids, build) and the rows (sort, build) need nothing
        // from each other, so large inputs build them on two threads.
        let ids = Mutex<_IDIndex<Item>?>(nil)
        let rows = Mutex<(tree: _CountedBTree<Item>, isStrictlyIncreasing: Bool)?>(nil)
        let parts = items.count >= _parallelBuildThreshold ? 2 : 1
        _forEachConcurrently(parts) { part in
            if part == 0 {
                let index = _IDIndex(distinctItems: items)
                ids.withLock { $0 = index }
            }
            if part == parts - 1 {
                let sorted = _sortedRows(items, comparator: comparator)
                rows.withLock { $0 = sorted }
            }
        }
        guard let index = ids.withLock({ $0 }), let (tree, isStrictlyIncreasing) = rows.withLock({ $0 }) else { return nil }
        let storage = _ListStorage(rows: tree, ids: index, comparator: comparator)
        storage._checkInvariants()
        return _Built(storage: storage, isStrictlyIncreasing: isStrictlyIncreasing)
    }

    /// The items as rows, sorted stably by `comparator`, and whether no two tie.
    private static func _sortedRows(_ items: [Item], comparator: Comparator) -> (tree: _CountedBTree<Item>, isStrictlyIncreasing: Bool) {
        var order = Array(items.indices)
        var isStrictlyIncreasing = true
        items.withUnsafeBufferPointer { items in
            order.sort { comparator(items[$0], items[$1]) }  // stable: ties keep arrival order
            for position in order.indices.dropFirst() where !comparator(items[order[position - 1]], items[order[position]]) {
                isStrictlyIncreasing = false
                break
            }
        }
        return (_CountedBTree(order.map { items[$0] }), isStrictlyIncreasing)
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
    func _inserting(_ items: [Item]) -> _ListStorage? {
        guard let built = Self._build(items, comparator: areInIncreasingOrder), built.isStrictlyIncreasing,
              let mergedIDs = ids._merging(built.storage.ids) else { return nil }
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
    /// - Complexity: O(*k* log *k*) comparisons for *k* items (O(*k*) when they arrive in
    ///   row order) and O(*k*) hashes; O(*n* + *k* log *n*) on the one-at-a-time path.
    mutating func replaceAll(with items: [Item]) {
        if let built = Self._build(items, comparator: areInIncreasingOrder), built.isStrictlyIncreasing {
            self = built.storage
            return
        }
        removeAll(notIn: Set(items.lazy.map(\.id)))
        add(contentsOf: items)
    }
}

/// An id's hash and the position of its item in the input.
struct _HashSlot {
    var hash: Int
    var index: Int
}

/// Sorts slots by hash, stably (equal hashes keep input order). Not generic, so the
/// sort is specialized for the slot type.
func _sortByHash(_ slots: inout [_HashSlot]) {
    slots.sort { $0.hash < $1.hash }
}

/// Inputs at least this large are built on two threads.
let _parallelBuildThreshold = 16_384

/// Runs `body(0)`, …, `body(parts - 1)`, on separate threads when `parts > 1`, and
/// returns when all are done.
func _forEachConcurrently(_ parts: Int, _ body: @Sendable (Int) -> Void) {
    if parts == 1 {
        body(0)
    } else {
        DispatchQueue.concurrentPerform(iterations: parts, execute: body)
    }
}

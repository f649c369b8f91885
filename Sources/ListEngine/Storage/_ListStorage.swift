/// The rows of one version of a list: the ordered rows, an id index, and the comparator.
///
/// A value type whose copies share structure: taking a snapshot is O(1), and a mutation
/// of one row copies O(log *n*) nodes. Every mutation here has the one-element-at-a-time
/// meaning of the list's contract; bulk paths must produce identical results.
///
/// A list of at most ``_Tuning/unindexedListMaximumRows`` rows keeps no id index
/// (`ids` is empty): a lookup by id reads the rows. A list of more rows keeps an index
/// of every row. Every mutation ends in one state or the other, by the row count alone.
@usableFromInline struct _ListStorage<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline typealias Comparator = @Sendable (Item, Item) -> Bool

    @usableFromInline var rows: _CountedBTree<Item>
    @usableFromInline var ids: _IDIndex<Item>
    @usableFromInline var areInIncreasingOrder: _RowOrder<Item>

    @inlinable init(comparator: _RowOrder<Item>) {
        rows = _CountedBTree()
        ids = _IDIndex()
        areInIncreasingOrder = comparator
    }

    /// Storage made of rows and an id index that hold the same items; the index is
    /// dropped when the rows are few enough to go without one.
    @inlinable init(rows: _CountedBTree<Item>, ids: _IDIndex<Item>, comparator: _RowOrder<Item>) {
        self.rows = rows
        self.ids = Self._keepsIndex(rowCount: rows.count) ? ids : _IDIndex()
        areInIncreasingOrder = comparator
    }

    @inlinable var count: Int { rows.count }

    @inlinable subscript(position: Int) -> Item { rows[position] }

    /// The item stored for `id`.
    ///
    /// - Complexity: O(log *n*); O(*n*) reads of ids, at most
    ///   ``_Tuning/unindexedListMaximumRows``, without an index.
    @inlinable subscript(id id: Item.ID) -> Item? {
        guard ids.isEmpty else { return ids[id] }
        return _scannedPosition(of: id).map { rows[$0] }
    }

    /// The position of the row with `id`, found by reading the rows in order.
    ///
    /// The rows are first read for an id with the same bytes as `id`, a comparison of a
    /// few words per row instead of a call of `==`, and a row found so is confirmed with
    /// `==`. Equal ids almost always have the same bytes (integers, UUIDs, strings of up
    /// to 15 bytes); when none matches, a second reading compares every id with `==`, so
    /// an equal id with other bytes (a long string stored apart from the one asked for)
    /// is found all the same.
    ///
    /// - Complexity: O(*n*) comparisons of bytes, and O(*n*) comparisons of ids when
    ///   none has the bytes of `id`.
    @inlinable func _scannedPosition(of id: Item.ID) -> Int? {
        let byBytes = withUnsafeBytes(of: id) { sought in
            rows.firstPosition { row in
                withUnsafeBytes(of: row.id) { _haveTheSameBytes($0.baseAddress.unsafelyUnwrapped, sought.baseAddress.unsafelyUnwrapped, count: MemoryLayout<Item.ID>.size) }
                    && row.id == id
            }
        }
        return byBytes ?? rows.firstPosition { $0.id == id }
    }

    // MARK: - The id index

    /// Whether a list of `rowCount` rows keeps an id index.
    @inlinable static func _keepsIndex(rowCount: Int) -> Bool {
        rowCount > _Tuning.unindexedListMaximumRows
    }

    /// The id index of every row: the kept one, or one built from the rows of a list
    /// that keeps none, for the bulk paths that work through an index.
    ///
    /// - Complexity: O(1) with an index; O(*n*) hashes and O(*n* log *n*) integer
    ///   comparisons for the at most ``_Tuning/unindexedListMaximumRows`` rows of a list
    ///   without.
    @inlinable var _fullIndex: _IDIndex<Item> {
        guard ids.isEmpty && !rows.isEmpty else { return ids }
        return _IDIndex(uniqueItems: Array(rows))
    }

    /// Builds or drops the id index after a change of the row count moved the list
    /// across ``_Tuning/unindexedListMaximumRows``.
    ///
    /// - Complexity: O(1), or O(*n*) for the at most
    ///   ``_Tuning/unindexedListMaximumRows`` + 1 rows of a list that crossed.
    @inlinable mutating func _indexIfNeeded() {
        if Self._keepsIndex(rowCount: rows.count) {
            if ids.isEmpty { ids = _fullIndex }
        } else if !ids.isEmpty {
            ids = _IDIndex()
        }
    }

    // MARK: - Searching

    /// The position at which `item` would be inserted: after every row that does not sort after it.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @inlinable func upperBound(of item: Item) -> Int {
        let less = areInIncreasingOrder
        return rows.partitioningIndex { less(item, $0) }
    }

    /// The position of `id`, or `nil` when absent.
    ///
    /// - Complexity: O(log *n* + *t*) comparisons, *t* = rows tied with the item; O(*n*)
    ///   only when the comparator is not a strict weak order and the search misses.
    @inlinable func position(of id: Item.ID) -> Int? {
        guard ids.isEmpty else { return ids[id].map(position(ofStored:)) }
        return _scannedPosition(of: id)
    }

    /// The position of an item known to be stored (its id is present).
    @inlinable func position(ofStored item: Item) -> Int {
        let less = areInIncreasingOrder
        // Almost always the row the search ends at; ties are read one by one.
        if var (position, row) = rows.partitioningElement(where: { !less($0, item) }) {
            while true {
                if row.id == item.id { return position }
                if less(item, row) { break }
                position += 1
                guard position < rows.count else { break }
                row = rows[position]
            }
        }
        // Only reachable when the comparator is inconsistent: fall back to a scan.
        guard let position = _scannedPosition(of: item.id) else {
            preconditionFailure("id index and rows disagree about \(item.id)")
        }
        return position
    }

    // MARK: - Mutating

    /// Adds one item with the contract's meaning. Returns whether anything changed.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @discardableResult
    @inlinable mutating func add(_ item: Item) -> Bool {
        _place(item) != nil
    }

    /// Adds one item with the contract's meaning and says where its row was and is:
    /// `old` is `nil` for a new id; the result is `nil` when nothing changed (the stored
    /// item equals `item`).
    ///
    /// - Complexity: O(log *n*) comparisons.
    @inlinable mutating func _place(_ item: Item) -> (old: Int?, new: Int)? {
        guard !ids.isEmpty else {
            guard let position = _scannedPosition(of: item.id) else {
                let place = _insert(item)
                _indexIfNeeded()
                return (nil, place)
            }
            if rows[position].isContentEqual(to: item) { return nil }
            return (position, _move(from: position, to: item))
        }
        let location = ids.locate(item.id)
        guard let stored = location.item else {
            let place = _insert(item)
            ids.update(item, at: location)
            return (nil, place)
        }
        if stored.isContentEqual(to: item) { return nil }
        let position = position(ofStored: stored)
        let place = _move(from: position, to: item)
        ids.update(item, at: location)
        return (position, place)
    }

    /// Replaces the row at `position` with `item`, where it sorts, and returns its new
    /// position; the id index is left as it was.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @inlinable mutating func _move(from position: Int, to item: Item) -> Int {
        let less = areInIncreasingOrder
        if let place = rows._editingRootLeaf(room: 0, { Self._move(in: &$0, from: position, to: item, less) }) {
            return place
        }
        let fitsAfterPrevious = position == 0 || !less(item, rows[position - 1])
        let fitsBeforeNext = position == rows.count - 1 || !less(rows[position + 1], item)
        var place = position
        if fitsAfterPrevious && fitsBeforeNext {
            rows[position] = item
        } else {
            rows.remove(at: position)
            place = upperBound(of: item)
            rows.insert(item, at: place)
        }
        return place
    }

    /// ``_move(from:to:)`` on the elements of a root leaf.
    @inlinable static func _move(in rows: inout [Item], from position: Int, to item: Item, _ less: _RowOrder<Item>) -> Int {
        let fitsAfterPrevious = position == 0 || !less(item, rows[position - 1])
        let fitsBeforeNext = position == rows.count - 1 || !less(rows[position + 1], item)
        if fitsAfterPrevious && fitsBeforeNext {
            rows[position] = item
            return position
        }
        rows.remove(at: position)
        let place = _CountedBTree<Item>._partitioningIndex(of: rows, in: 0 ..< rows.count) { less(item, $0) }
        rows.insert(item, at: place)
        return place
    }

    /// Inserts `item` at its upper bound (after every row that does not sort after it)
    /// and returns its position; the id index is left as it was.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @inlinable mutating func _insert(_ item: Item) -> Int {
        let less = areInIncreasingOrder
        if let place = rows._editingRootLeaf(room: 1, { rows in
            let place = _CountedBTree<Item>._partitioningIndex(of: rows, in: 0 ..< rows.count) { less(item, $0) }
            rows.insert(item, at: place)
            return place
        }) {
            return place
        }
        let place = upperBound(of: item)
        rows.insert(item, at: place)
        return place
    }

    /// Adds items one at a time, left to right.
    ///
    /// Into an empty list, items with distinct ids are placed by one stable sort and a
    /// bulk build, which gives the same rows as inserting each at its upper bound. Many
    /// new ids that tie with nothing are merged in at once (``_inserting(_:)``); many
    /// items some of whose ids are stored go through the bulk edit
    /// (``_editing(reduced:)``) when nothing they place ties.
    ///
    /// - Complexity: O(*k* log *n*) comparisons; O(*k* log *k*) into an empty list;
    ///   O(*n* + *k* log *k*) when merged.
    @inlinable mutating func add<S: Sequence>(contentsOf items: S) where S.Element == Item {
        let items = Array(items)
        switch _EditStrategy.forAdding(itemCount: items.count, rowCount: rows.count) {
        case .rebuild:
            if let built = Self._build(items, comparator: areInIncreasingOrder, checkingTies: false) {
                self = built.storage
                return
            }
        case .merge:
            if let merged = _inserting(items) {
                self = merged
                return
            }
            // Some items have ids already stored (or tie): the bulk edit places changed
            // and new items in one pass over the rows, unless a placed item ties with a
            // neighbour; only then do the items go one at a time.
            var run = _EditRun<Item>()
            run.add(items)
            if let (edited, _) = _editing(reduced: _IDEditor(run)) {
                self = edited
                return
            }
        default:
            break
        }
        for item in items { add(item) }
        _checkInvariants()
    }

    /// Removes the row with `id`. Returns whether it was present.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @discardableResult
    @inlinable mutating func remove(id: Item.ID) -> Bool {
        guard !ids.isEmpty else {
            guard let position = _scannedPosition(of: id) else { return false }
            rows.remove(at: position)
            return true
        }
        let location = ids.locate(id)
        guard let stored = location.item else { return false }
        rows.remove(at: position(ofStored: stored))
        ids.remove(at: location)
        _indexIfNeeded()
        return true
    }

    @inlinable mutating func removeAll() {
        rows.removeAll()
        ids.removeAll()
    }

    /// Removes every row whose id is not in `keep`.
    ///
    /// - Complexity: O(*n*) when many rows go, O(*r* log *n*) for *r* removed rows otherwise.
    @inlinable mutating func removeAll(notIn keep: Set<Item.ID>) {
        let doomed = rows.lazy.filter { !keep.contains($0.id) }.map { $0.id }
        let doomedIDs = Array(doomed)
        guard !doomedIDs.isEmpty else { return }
        if _EditStrategy.forRemoving(removedCount: doomedIDs.count, rowCount: rows.count) == .rebuild {
            let kept = rows.filter { keep.contains($0.id) }
            rows = _CountedBTree(kept)
            ids = Self._keepsIndex(rowCount: kept.count) ? _IDIndex(uniqueItems: kept) : _IDIndex()
        } else {
            for id in doomedIDs { remove(id: id) }
        }
        _checkInvariants()
    }

    /// Re-sorts the rows stably under `order`, which becomes the list's order.
    ///
    /// - Complexity: O(*n* log *n*) comparisons.
    @inlinable mutating func sort(by order: _RowOrder<Item>) {
        var items = Array(rows)
        order.sort(&items) { $0 }  // stable: ties keep their current order
        rows = _CountedBTree(items)
        areInIncreasingOrder = order
        _checkInvariants()
    }
}

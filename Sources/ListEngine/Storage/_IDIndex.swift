/// One entry of the id index: the id's hash and the stored item.
@usableFromInline struct _IDEntry<Item: DataSourceComparable>: Sendable {
    @usableFromInline var hash: Int
    @usableFromInline var item: Item

    @inlinable init(hash: Int, item: Item) {
        self.hash = hash
        self.item = item
    }
}

/// What an entry of the id index's overlay says about its id, against the main entries.
@usableFromInline enum _OverlayKind: UInt8, Sendable {
    /// The id is not in the main entries; the overlay entry holds its item.
    case added
    /// The id is in the main entries; the overlay entry holds its item now.
    case changed
    /// The id is in the main entries and has been removed; the overlay entry's item is
    /// read only for its id.
    case removed

    /// How many ids an entry of this kind adds to the main entries' count.
    @inlinable var countChange: Int {
        switch self {
        case .added: 1
        case .changed: 0
        case .removed: -1
        }
    }
}

/// One entry of the id index's overlay: an id and what became of it since the main
/// entries were built.
@usableFromInline struct _OverlayEntry<Item: DataSourceComparable>: Sendable {
    @usableFromInline var entry: _IDEntry<Item>
    @usableFromInline var kind: _OverlayKind

    @inlinable init(_ entry: _IDEntry<Item>, _ kind: _OverlayKind) {
        self.entry = entry
        self.kind = kind
    }
}

/// A persistent map from id to item, ordered by the ids' hashes.
///
/// One counted B-tree holds the entries (hash and item) by ascending hash, so a lookup
/// is one descent that compares integers and reads the item from the leaf it ends in.
/// Copying is O(1) and a mutation copies only the O(log *n*) nodes on its path, so the
/// `old` and `new` snapshots of a batch share nearly all of it. Ids with equal hashes
/// sit next to each other; lookups scan that (almost always single-entry) run.
///
/// A bulk edit of a large index does not copy the main entries' leaves it falls into
/// (with its ids spread over the list, that is every leaf): it writes its ids into a
/// second, small tree beside them, the overlay, which a lookup reads first. The main
/// entries stay shared with the snapshots of earlier versions. A bulk edit that leaves
/// the overlay past a fraction of the list (``_Tuning/idOverlayListFraction``) folds it
/// into the main entries in one walk. Single-row changes edit the overlay entry of an
/// id that has one, and the main entries otherwise.
@usableFromInline struct _IDIndex<Item: DataSourceComparable>: Sendable {
    /// The main entries, by ascending hash.
    @usableFromInline var entries: _CountedBTree<_IDEntry<Item>>
    /// The ids that bulk edits added, changed or removed since `entries` was built, by
    /// ascending hash; each at most once, and ahead of `entries` for its id.
    @usableFromInline var overlay = _CountedBTree<_OverlayEntry<Item>>()
    /// The overlay's added ids less its removed ones.
    @usableFromInline var overlayCountChange = 0

    @inlinable init() {
        entries = _CountedBTree()
    }

    /// Builds the index from items with distinct ids.
    ///
    /// - Complexity: O(*n*) hashes, O(*n* log *n*) integer comparisons, O(*n*) to build.
    @inlinable init<C: Collection>(uniqueItems items: C) where C.Element == Item {
        guard let index = Self(distinctItems: Array(items)) else {
            preconditionFailure("_IDIndex(uniqueItems:) was given an id twice")
        }
        self = index
    }

    /// Builds the index from items, or returns `nil` when two items share an id.
    ///
    /// - Complexity: O(*n*) hashes, O(*n*) integer operations to sort them, O(*n*) to build.
    @inlinable init?(distinctItems items: [Item]) {
        guard let slots = Self._slotsByHash(distinctItems: items) else { return nil }
        self.init(slots: slots, of: items, concurrently: false)
    }

    /// The index of `items` from their slots by hash (see ``_slotsByHash(distinctItems:)``).
    ///
    /// - Parameter concurrently: whether to build the entries' leaves on two threads
    ///   (see ``_CountedBTree/init(count:fanout:concurrently:element:)``).
    /// - Complexity: O(*n*).
    @inlinable init(slots: [_HashSlot], of items: [Item], concurrently: Bool) {
        entries = _CountedBTree(count: slots.count, concurrently: concurrently) { _IDEntry(hash: slots[$0].hash, item: items[slots[$0].index]) }
    }

    /// The hashes of the items' ids with the items' positions, by ascending hash (equal
    /// hashes in item order), or `nil` when two items share an id.
    ///
    /// - Complexity: O(*n*) hashes, O(*n*) integer operations to sort them.
    @inlinable static func _slotsByHash(distinctItems items: [Item]) -> [_HashSlot]? {
        var slots = [_HashSlot]()
        slots.reserveCapacity(items.count)
        for index in items.indices {
            slots.append(_HashSlot(hash: items[index].id.hashValue, index: index))
        }
        _sortByHash(&slots)
        // Equal ids have equal hashes, so a repeated id sits in a run of equal hashes.
        var runStart = 0
        for position in slots.indices.dropFirst() {
            if slots[position].hash != slots[runStart].hash {
                runStart = position
                continue
            }
            let id = items[slots[position].index].id
            for earlier in runStart ..< position where items[slots[earlier].index].id == id {
                return nil
            }
        }
        return slots
    }

    @inlinable var count: Int { entries.count + overlayCountChange }

    @inlinable var isEmpty: Bool { count == 0 }

    /// Where `id` is, or where it would be inserted.
    @usableFromInline struct Location {
        /// The position in the overlay when `overlayKind` is set, in the main entries otherwise.
        @usableFromInline var position: Int
        @usableFromInline var hash: Int
        /// The stored item, when the id is present.
        @usableFromInline var item: Item?
        /// The kind of the id's overlay entry, when it has one.
        @usableFromInline var overlayKind: _OverlayKind?

        @inlinable init(position: Int, hash: Int, item: Item?, overlayKind: _OverlayKind? = nil) {
            self.position = position
            self.hash = hash
            self.item = item
            self.overlayKind = overlayKind
        }
    }

    /// Finds `id`: its position and item, or the position where it belongs.
    ///
    /// - Complexity: O(log *n*) integer comparisons, plus one read per other id with the
    ///   same hash.
    @inlinable func locate(_ id: Item.ID) -> Location {
        let hash = id.hashValue
        if !overlay.isEmpty, case (let position, let change?) = Self._find(id, hash: hash, in: overlay, entry: { $0.entry }) {
            return Location(position: position, hash: hash, item: change.kind == .removed ? nil : change.entry.item, overlayKind: change.kind)
        }
        let (position, entry) = Self._find(id, hash: hash, in: entries, entry: { $0 })
        return Location(position: position, hash: hash, item: entry?.item)
    }

    /// The element of `tree` for `id` with its position, or the position where it
    /// belongs (after the run of `hash`) and `nil`.
    ///
    /// - Complexity: O(log *n*) integer comparisons, plus one read per other id with the
    ///   same hash.
    @inlinable static func _find<Element>(
        _ id: Item.ID, hash: Int, in tree: _CountedBTree<Element>, entry: (Element) -> _IDEntry<Item>
    ) -> (position: Int, match: Element?) {
        guard var (position, element) = tree.partitioningElement(where: { entry($0).hash >= hash }) else { return (tree.count, nil) }
        // Almost always the entry the search ends at; colliding hashes are read one by one.
        while entry(element).hash == hash {
            if entry(element).item.id == id { return (position, element) }
            position += 1
            guard position < tree.count else { break }
            element = tree[position]
        }
        return (position, nil)
    }

    /// The main entries' item for `id`, whatever the overlay says.
    ///
    /// - Complexity: O(log *n*).
    @inlinable func _mainItem(_ id: Item.ID, hash: Int) -> Item? {
        Self._find(id, hash: hash, in: entries, entry: { $0 }).match?.item
    }

    /// The item stored for `id`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable subscript(id: Item.ID) -> Item? {
        locate(id).item
    }

    /// Stores `item` under its id, replacing any previous item with that id.
    ///
    /// - Complexity: O(log *n*).
    @inlinable mutating func update(_ item: Item) {
        update(item, at: locate(item.id))
    }

    /// Stores `item` at `location`, which ``locate(_:)`` returned for its id with no
    /// change to the index since.
    ///
    /// - Complexity: O(log *n*).
    @inlinable mutating func update(_ item: Item, at location: Location) {
        let entry = _IDEntry(hash: location.hash, item: item)
        if let kind = location.overlayKind {
            overlay[location.position] = _OverlayEntry(entry, kind == .added ? .added : .changed)
            if kind == .removed { overlayCountChange += 1 }
        } else if location.item != nil {
            entries[location.position] = entry
        } else {
            entries.insert(entry, at: location.position)
        }
    }

    /// Removes the entry for `id`; returns the removed item.
    ///
    /// - Complexity: O(log *n*).
    @discardableResult
    @inlinable mutating func remove(_ id: Item.ID) -> Item? {
        let location = locate(id)
        guard location.item != nil else { return nil }
        remove(at: location)
        return location.item
    }

    /// Removes the entry at `location`, which ``locate(_:)`` returned for a present id
    /// with no change to the index since.
    ///
    /// - Complexity: O(log *n*).
    @inlinable mutating func remove(at location: Location) {
        switch location.overlayKind {
        case nil: entries.remove(at: location.position)
        case .added: overlay.remove(at: location.position)
        case .changed: overlay[location.position].kind = .removed
        case .removed: preconditionFailure("removing an id the index does not hold")
        }
        if location.overlayKind != nil { overlayCountChange -= 1 }
    }

    @inlinable mutating func removeAll() {
        entries.removeAll()
        overlay.removeAll()
        overlayCountChange = 0
    }

    /// The index holding the entries of both indexes, or `nil` when they share an id.
    ///
    /// - Complexity: O(*n* + *m*) integer comparisons and copies.
    @inlinable func _merging(_ other: _IDIndex) -> _IDIndex? {
        let this = _folded
        let left = this.entries._array, right = other._folded.entries._array
        var merged: [_IDEntry<Item>] = []
        merged.reserveCapacity(left.count + right.count)
        var i = 0, j = 0
        while i < left.count && j < right.count {
            if right[j].hash < left[i].hash {
                merged.append(right[j])
                j += 1
            } else {
                if right[j].hash == left[i].hash && this._sharesID(with: other, hash: left[i].hash) { return nil }
                merged.append(left[i])
                i += 1
            }
        }
        merged.append(contentsOf: left[i...])
        merged.append(contentsOf: right[j...])
        var index = _IDIndex()
        index.entries = _CountedBTree(count: merged.count) { merged[$0] }
        return index
    }

    /// Whether an id with `hash` is in both indexes (hash collisions are rare, so this is
    /// called rarely and may search). This index must have no overlay.
    @inlinable func _sharesID(with other: _IDIndex, hash: Int) -> Bool {
        var position = entries.partitioningIndex { $0.hash >= hash }
        while position < count {
            let entry = entries[position]
            guard entry.hash == hash else { break }
            if other[entry.item.id] != nil { return true }
            position += 1
        }
        return false
    }

    /// Traps unless the tree is well formed and the hashes ascend and belong to the
    /// items beside them. Only with `LIST_INTERNAL_CHECKS`.
    @inlinable func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        entries._checkInvariants()
        var previous = Int.min
        for entry in entries {
            precondition(entry.hash >= previous, "id index: hashes out of order")
            precondition(entry.hash == entry.item.id.hashValue, "id index: hash \(entry.hash) stored beside \(entry.item.id)")
            previous = entry.hash
        }
        overlay._checkInvariants()
        previous = Int.min
        var countChange = 0
        for change in overlay {
            let entry = change.entry
            precondition(entry.hash >= previous, "id index overlay: hashes out of order")
            precondition(entry.hash == entry.item.id.hashValue, "id index overlay: hash \(entry.hash) stored beside \(entry.item.id)")
            precondition((_mainItem(entry.item.id, hash: entry.hash) == nil) == (change.kind == .added), "id index overlay: \(change.kind) for \(entry.item.id)")
            previous = entry.hash
            countChange += change.kind.countChange
        }
        precondition(countChange == overlayCountChange, "id index overlay: count change \(overlayCountChange), entries say \(countChange)")
        #endif
    }

    /// The index with its overlay folded into the main entries, and no overlay.
    ///
    /// - Complexity: O(*n* + *d*) for *n* main entries and *d* overlay entries.
    @inlinable var _folded: _IDIndex { _folded(concurrently: false) }

    /// The index with its overlay folded into the main entries, and no overlay.
    ///
    /// - Parameter concurrently: whether to build the entries' leaves in two halves on
    ///   two threads, cut at a hash: the threads whose parts of bulk edits copy them (see
    ///   ``_CountedBTree/init(count:fanout:concurrently:element:)``).
    /// - Complexity: O(*n* + *d*) for *n* main entries and *d* overlay entries.
    @inlinable func _folded(concurrently: Bool) -> _IDIndex {
        guard !overlay.isEmpty else { return self }
        let changes = overlay._array, fanout = entries.fanout
        var folded = _IDIndex()
        folded.entries = _CountedBTree(fanout: fanout)
        guard count > 0 else { return folded }
        // Ids of one hash fold on one side of the cut.
        let cutHash = entries.isEmpty ? 0 : entries[entries.count / 2].hash
        let mainCut = entries.partitioningIndex { $0.hash >= cutHash }
        let changeCut = _CountedBTree<_OverlayEntry<Item>>._partitioningIndex(of: changes, from: 0) { $0.entry.hash >= cutHash }
        let earlierCount = mainCut + changes[..<changeCut].reduce(0) { $0 + $1.kind.countChange }
        let leaves: [_CountedBTree<_IDEntry<Item>>._Node]
        if concurrently && earlierCount >= fanout.leaf && count - earlierCount >= fanout.leaf {
            let index = self, total = count
            leaves = _joinedConcurrently(
                { index._foldedLeaves(count: earlierCount, fromMain: 0, changes: changes[..<changeCut]) },
                { index._foldedLeaves(count: total - earlierCount, fromMain: mainCut, changes: changes[changeCut...]) }
            )
        } else {
            leaves = _foldedLeaves(count: count, fromMain: 0, changes: changes[...])
        }
        folded.entries.root = _CountedBTree<_IDEntry<Item>>._stackBranches(on: leaves, fanout: fanout)
        folded.entries._checkInvariants()
        return folded
    }

    /// Full leaves holding the `count` entries that the main entries from `fromMain` on,
    /// with `changes` (the overlay entries of the same hashes) applied, fold into.
    ///
    /// - Complexity: O(`count` + `changes.count`).
    @inlinable func _foldedLeaves(count total: Int, fromMain first: Int, changes: ArraySlice<_OverlayEntry<Item>>) -> [_CountedBTree<_IDEntry<Item>>._Node] {
        guard total > 0 else { return [] }
        var main = _CountedBTree<_IDEntry<Item>>.Iterator(root: entries.root, position: first)
        var nextChange = changes.startIndex
        // The entries of a run of one hash that the overlay names, in the order they go.
        var run: [_IDEntry<Item>] = [], nextInRun = 0
        let fanout = entries.fanout
        let sizes = _CountedBTree<_IDEntry<Item>>._evenSizes(total: total, target: fanout.leaf, capacity: fanout.leaf)
        return _CountedBTree<_IDEntry<Item>>._leaves(sized: sizes[...], from: 0) { _ in
            while true {
                if nextInRun < run.count {
                    defer { nextInRun += 1 }
                    return run[nextInRun]
                }
                if nextChange == changes.endIndex || (!main._isAtEnd && main.leaf[main.index].hash < changes[nextChange].entry.hash) {
                    precondition(!main._isAtEnd, "id index: overlay count change disagrees with its entries")
                    defer { main._skip() }
                    return main.leaf[main.index]
                }
                // The main entries of this hash, as the overlay leaves them, then its added ids.
                let hash = changes[nextChange].entry.hash
                let firstChange = nextChange
                while nextChange < changes.endIndex && changes[nextChange].entry.hash == hash { nextChange += 1 }
                let named = changes[firstChange ..< nextChange]
                run.removeAll(keepingCapacity: true)
                nextInRun = 0
                while !main._isAtEnd && main.leaf[main.index].hash == hash {
                    let entry = main.leaf[main.index]
                    main._skip()
                    guard let change = named.first(where: { $0.entry.item.id == entry.item.id }) else {
                        run.append(entry)
                        continue
                    }
                    if change.kind == .changed { run.append(change.entry) }
                }
                for change in named where change.kind == .added { run.append(change.entry) }
            }
        }
    }
}

extension _IDIndex where Item: Equatable {
    /// Builds the index from items, as ``init(distinctItems:)`` does, but keeps the item
    /// that `stored` holds for an id wherever it equals the new one: what adding the
    /// items one at a time leaves, since adding an equal item changes nothing.
    ///
    /// The stored entries are walked once, beside the new ones, as the entries are built
    /// (after their overlay, if any, is folded into a copy of them).
    ///
    /// - Parameters:
    ///   - stored: the index of the items being replaced.
    ///   - kept: receives, for each stored item taken, its position in `items` and the
    ///     item. An equal item with the same bits as the stored one is left out: the
    ///     two are the same value.
    /// - Complexity: O(*k*) hashes, O(*k*) integer operations to sort them (O(*k* log *k*)
    ///   under 4,096 items), O(*n* + *k*) to build and walk, and one `==` per item whose
    ///   id is stored, for *k* items and *n* stored entries.
    @inlinable init?(distinctItems items: [Item], keepingEqualItemsOf stored: _IDIndex, kept: inout [(index: Int, item: Item)]) {
        guard let slots = Self._slotsByHash(distinctItems: items) else { return nil }
        // Gathered in a loop of nothing but reads, which overlap, before the walk below
        // (whose work between reads would leave each read to wait alone).
        var byHash: [Item] = []
        byHash.reserveCapacity(slots.count)
        for slot in slots { byHash.append(items[slot.index]) }
        // The stored entries are read in place, at a cursor that stops at the first
        // entry whose hash is not below the current slot's; ids sharing a hash (almost
        // never) are looked for further on without moving it. An overlay is folded in
        // first, into a copy of the entries that lives until the build ends.
        var cursor = stored._folded.entries.makeIterator()
        var taken: [(index: Int, item: Item)] = []
        entries = _CountedBTree(count: slots.count) { position in
            let slot = slots[position], item = byHash[position]
            while !cursor._isAtEnd && cursor.leaf[cursor.index].hash < slot.hash { cursor._skip() }
            guard !cursor._isAtEnd && cursor.leaf[cursor.index].hash == slot.hash else {
                return _IDEntry(hash: slot.hash, item: item)
            }
            var entry = cursor.leaf[cursor.index]
            if entry.item.id != item.id {
                var match = cursor
                repeat {
                    match._skip()
                    guard !match._isAtEnd && match.leaf[match.index].hash == slot.hash else {
                        return _IDEntry(hash: slot.hash, item: item)
                    }
                    entry = match.leaf[match.index]
                } while entry.item.id != item.id
            }
            guard entry.item.isContentEqual(to: item) else { return _IDEntry(hash: slot.hash, item: item) }
            if !_haveTheSameBits(entry.item, item) { taken.append((slot.index, entry.item)) }
            return entry
        }
        kept = taken
    }
}

/// Whether two values have the same bytes. Such values are the same value (any
/// references in them are to the same objects); differing padding may make equal
/// values look different, never different values look the same.
@inlinable func _haveTheSameBits<Value>(_ first: Value, _ second: Value) -> Bool {
    withUnsafeBytes(of: first) { first in
        withUnsafeBytes(of: second) { second in
            guard let firstBase = first.baseAddress, let secondBase = second.baseAddress else { return true }
            return _haveTheSameBytes(firstBase, secondBase, count: first.count)
        }
    }
}

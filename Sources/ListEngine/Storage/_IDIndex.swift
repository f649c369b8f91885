/// One entry of the id index: the id's hash and the stored item.
@usableFromInline struct _IDEntry<Item: DataSourceComparable>: Sendable {
    @usableFromInline var hash: Int
    @usableFromInline var item: Item
}

/// A persistent map from id to item, ordered by the ids' hashes.
///
/// Two counted B-trees hold the entries at the same positions: one of hashes, one of
/// items. Searching happens in the tree of `Int`s, which is specialized code with no
/// calls through the item type's witness table; the item tree is only read at the one
/// position found. Copying is O(1) and a mutation copies only the O(log *n*) nodes on
/// its paths, so the `old` and `new` snapshots of a batch share nearly all of it. Ids
/// with equal hashes sit next to each other; lookups scan that (almost always
/// single-entry) run.
@usableFromInline struct _IDIndex<Item: DataSourceComparable>: Sendable {
    /// The hashes, ascending.
    @usableFromInline var hashes: _CountedBTree<Int>
    /// The items, at the positions of their ids' hashes.
    @usableFromInline var items: _CountedBTree<Item>

    @inlinable init() {
        hashes = _CountedBTree()
        items = _CountedBTree()
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
    /// - Complexity: O(*n*) hashes, O(*n* log *n*) integer comparisons, O(*n*) to build.
    @inlinable init?(distinctItems items: [Item]) {
        // Plain index loops: `enumerated()` and `map` over items cost a witness call per
        // step in unspecialized generic code.
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
        hashes = _CountedBTree(count: slots.count) { slots[$0].hash }
        self.items = _CountedBTree(count: slots.count) { items[slots[$0].index] }
    }

    @inlinable var count: Int { hashes.count }

    /// Where `id` is, or where it would be inserted.
    @usableFromInline struct Location {
        @usableFromInline var position: Int
        @usableFromInline var hash: Int
        /// The stored item, when the id is present.
        @usableFromInline var item: Item?

        @inlinable init(position: Int, hash: Int, item: Item?) {
            self.position = position
            self.hash = hash
            self.item = item
        }
    }

    /// Finds `id`: its position and item, or the position where it belongs.
    ///
    /// - Complexity: O(log *n*) integer comparisons and one O(log *n*) item read.
    @inlinable func locate(_ id: Item.ID) -> Location {
        let hash = id.hashValue
        var position = hashes.partitioningIndex { $0 >= hash }
        while position < hashes.count, hashes[position] == hash {
            let item = items[position]
            if item.id == id { return Location(position: position, hash: hash, item: item) }
            position += 1
        }
        return Location(position: position, hash: hash, item: nil)
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
        if location.item != nil {
            items[location.position] = item
        } else {
            hashes.insert(location.hash, at: location.position)
            items.insert(item, at: location.position)
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
        hashes.remove(at: location.position)
        items.remove(at: location.position)
    }

    @inlinable mutating func removeAll() {
        hashes.removeAll()
        items.removeAll()
    }

    /// The index holding the entries of both indexes, or `nil` when they share an id.
    ///
    /// - Complexity: O(*n* + *m*) integer comparisons and copies.
    @inlinable func _merging(_ other: _IDIndex) -> _IDIndex? {
        // Whole-leaf copies into arrays, then a merge by position: iterating the trees
        // element by element costs a witness call per step in generic code.
        let leftHashes = hashes._array, rightHashes = other.hashes._array
        let leftItems = items._array, rightItems = other.items._array
        var order: [(fromLeft: Bool, index: Int32)] = []
        order.reserveCapacity(leftHashes.count + rightHashes.count)
        var i = 0, j = 0
        while i < leftHashes.count && j < rightHashes.count {
            if rightHashes[j] < leftHashes[i] {
                order.append((false, Int32(truncatingIfNeeded: j)))
                j += 1
            } else {
                if rightHashes[j] == leftHashes[i] && _sharesID(with: other, hash: leftHashes[i]) { return nil }
                order.append((true, Int32(truncatingIfNeeded: i)))
                i += 1
            }
        }
        while i < leftHashes.count {
            order.append((true, Int32(truncatingIfNeeded: i)))
            i += 1
        }
        while j < rightHashes.count {
            order.append((false, Int32(truncatingIfNeeded: j)))
            j += 1
        }
        var merged = _IDIndex()
        merged.hashes = _CountedBTree(count: order.count) { order[$0].fromLeft ? leftHashes[Int(order[$0].index)] : rightHashes[Int(order[$0].index)] }
        merged.items = _CountedBTree(count: order.count) { order[$0].fromLeft ? leftItems[Int(order[$0].index)] : rightItems[Int(order[$0].index)] }
        return merged
    }

    /// Whether an id with `hash` is in both indexes (hash collisions are rare, so this is
    /// called rarely and may search).
    @inlinable func _sharesID(with other: _IDIndex, hash: Int) -> Bool {
        var position = hashes.partitioningIndex { $0 >= hash }
        while position < count, hashes[position] == hash {
            if other[items[position].id] != nil { return true }
            position += 1
        }
        return false
    }

    /// Traps unless both trees are well formed, of equal size, and the hashes ascend
    /// and belong to the items beside them. Only with `LIST_INTERNAL_CHECKS`.
    @inlinable func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        hashes._checkInvariants()
        items._checkInvariants()
        precondition(hashes.count == items.count, "id index: \(hashes.count) hashes for \(items.count) items")
        var previous = Int.min
        for (hash, item) in zip(hashes, items) {
            precondition(hash >= previous, "id index: hashes out of order")
            precondition(hash == item.id.hashValue, "id index: hash \(hash) stored beside \(item.id)")
            previous = hash
        }
        #endif
    }
}

/// One entry of the id index: the id's hash and the stored item.
struct _IDEntry<Item: DataSourceComparable>: Sendable {
    var hash: Int
    var item: Item
}

/// A persistent map from id to item, kept as a counted B-tree ordered by hash.
///
/// Copying is O(1) and a mutation copies only the O(log *n*) nodes on its path, so the
/// `old` and `new` snapshots of a batch share nearly all of it. Ids with equal hashes
/// sit next to each other; lookups scan that (almost always single-entry) run.
struct _IDIndex<Item: DataSourceComparable>: Sendable {
    private(set) var entries: _CountedBTree<_IDEntry<Item>>

    init() { entries = _CountedBTree() }

    /// Builds the index from items with distinct ids.
    ///
    /// - Complexity: O(*n*) hashes, O(*n* log *n*) integer comparisons, O(*n*) to build.
    init<C: Collection>(uniqueItems items: C) where C.Element == Item {
        guard let index = Self(distinctItems: Array(items)) else {
            preconditionFailure("_IDIndex(uniqueItems:) was given an id twice")
        }
        self = index
    }

    /// Builds the index from items, or returns `nil` when two items share an id.
    ///
    /// - Complexity: O(*n*) hashes, O(*n* log *n*) integer comparisons, O(*n*) to build.
    init?(distinctItems items: [Item]) {
        var slots = [_HashSlot]()
        slots.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            slots.append(_HashSlot(hash: item.id.hashValue, index: index))
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
        self.init(sortedEntries: slots.map { _IDEntry(hash: $0.hash, item: items[$0.index]) })
    }

    /// Builds the index from entries with distinct ids, already ordered by hash.
    ///
    /// - Complexity: O(*n*).
    init<C: Collection>(sortedEntries: C) where C.Element == _IDEntry<Item> {
        entries = _CountedBTree(sortedEntries)
    }

    var count: Int { entries.count }

    /// The first position whose hash is not below `hash`.
    private func lowerBound(_ hash: Int) -> Int {
        entries.partitioningIndex { $0.hash >= hash }
    }

    /// The position of `id`'s entry, or `nil`.
    private func position(of id: Item.ID, hash: Int) -> Int? {
        var position = lowerBound(hash)
        var iterator = entries.elements(from: position)
        while let entry = iterator.next(), entry.hash == hash {
            if entry.item.id == id { return position }
            position += 1
        }
        return nil
    }

    /// The item stored for `id`.
    ///
    /// - Complexity: O(log *n*).
    subscript(id: Item.ID) -> Item? {
        let hash = id.hashValue
        var iterator = entries.elements(from: lowerBound(hash))
        while let entry = iterator.next(), entry.hash == hash {
            if entry.item.id == id { return entry.item }
        }
        return nil
    }

    /// Stores `item` under its id, replacing any previous item with that id.
    ///
    /// - Complexity: O(log *n*).
    mutating func update(_ item: Item) {
        let hash = item.id.hashValue
        if let position = position(of: item.id, hash: hash) {
            entries[position].item = item
        } else {
            entries.insert(_IDEntry(hash: hash, item: item), at: lowerBound(hash))
        }
    }

    /// Removes the entry for `id`; returns the removed item.
    ///
    /// - Complexity: O(log *n*).
    @discardableResult
    mutating func remove(_ id: Item.ID) -> Item? {
        guard let position = position(of: id, hash: id.hashValue) else { return nil }
        return entries.remove(at: position).item
    }

    mutating func removeAll() { entries.removeAll() }
}

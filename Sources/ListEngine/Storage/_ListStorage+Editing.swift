/// The `add` and `remove` calls made between two batches, in call order.
@usableFromInline struct _EditRun<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline enum Call: Sendable {
        case add([Item])
        case remove([Item.ID])
    }

    @usableFromInline var calls: [Call] = []
    /// The number of items and ids named by the calls.
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { calls.isEmpty }

    @inlinable mutating func add(_ items: [Item]) {
        calls.append(.add(items))
        count += items.count
    }

    @inlinable mutating func remove(_ ids: [Item.ID]) {
        calls.append(.remove(ids))
        count += ids.count
    }
}

/// What an edited batch did to each row it named, found while the edits were applied;
/// ``ChangeBatch`` is computed from it without searching either snapshot.
///
/// Rows are numbered by *owner*: one number per distinct id named by the calls.
@usableFromInline struct _EditedRows: Sendable, Equatable {
    /// Each owner's offset in the old rows, or -1 when its id was not there.
    @usableFromInline var oldOffsets: [Int]
    /// Each owner's offset in the new rows, or -1 when its id is not there.
    @usableFromInline var newOffsets: [Int]
    /// Whether the owner's id is in both and its item changed.
    @usableFromInline var isChanged: [Bool]
    /// The owners present in the old rows, by ascending old offset.
    @usableFromInline var oldOrder: [Int]
    /// The owners present in the new rows, by ascending new offset.
    @usableFromInline var newOrder: [Int]

    @inlinable init(owners: Int) {
        oldOffsets = [Int](repeating: -1, count: owners)
        newOffsets = [Int](repeating: -1, count: owners)
        isChanged = [Bool](repeating: false, count: owners)
        oldOrder = []
        newOrder = []
    }

    /// One row that was at `oldOffset` (`nil`: its id was not there) and is at
    /// `newOffset`; an item that was there changed.
    @inlinable init(oneRowFrom oldOffset: Int?, to newOffset: Int) {
        oldOffsets = [oldOffset ?? -1]
        newOffsets = [newOffset]
        isChanged = [oldOffset != nil]
        oldOrder = oldOffset == nil ? [] : [0]
        newOrder = [0]
    }
}

extension _ListStorage {
    /// Applies `run` one call at a time, each item and id in order: the meaning that
    /// ``_editing(_:)`` reproduces in bulk.
    ///
    /// - Complexity: O(*k* log *n*) for *k* items and ids.
    @inlinable mutating func apply(_ run: _EditRun<Item>) {
        var adds: [Item] = []
        for call in run.calls {
            switch call {
            case .add(let items):
                if adds.isEmpty { adds = items } else { adds.append(contentsOf: items) }
            case .remove(let ids):
                if !adds.isEmpty {
                    add(contentsOf: adds)
                    adds = []
                }
                for id in ids { remove(id: id) }
            }
        }
        if !adds.isEmpty { add(contentsOf: adds) }
    }

    /// The storage after `run`, built by one pass over the id index and one over the
    /// rows, with what happened to each named row; `nil` when the bulk path does not
    /// apply and the calls must be applied one at a time.
    ///
    /// The calls are first reduced to the last call for each id (adding A then B, or
    /// removing then adding, leaves the last). The id pass finds every named id's stored
    /// item and writes the new ones; the row pass removes the old items and inserts the
    /// new ones where they sort, recording old and new offsets as it goes.
    ///
    /// The result equals one-at-a-time application when no row that the calls place —
    /// a new or changed item, or an item put back after an earlier call of the run
    /// removed or changed it — ties with a row beside it; with a tie, where it goes
    /// depends on the order of the calls, so the pass gives up (as it does when the
    /// comparator turns out inconsistent).
    ///
    /// From `concurrentFrom` named ids on, each pass is cut in two halves that run on
    /// two threads, with the same result.
    ///
    /// - Complexity: O(*k* log *k* + *k* log *n*) comparisons and O(*l* · *b*) copies,
    ///   for *k* named ids falling into *l* leaves of *b* rows; untouched leaves are shared.
    @inlinable func _editing(_ run: _EditRun<Item>, concurrentFrom threshold: Int = _parallelEditThreshold) -> (storage: _ListStorage, edited: _EditedRows)? {
        guard !rows.isEmpty, run.count > 0 else { return nil }
        return _editing(reduced: _IDEditor<Item>(run), concurrentFrom: threshold)
    }

    /// ``_editing(_:concurrentFrom:)`` for a run already reduced to one edit per id.
    @inlinable func _editing(reduced: _IDEditor<Item>, concurrentFrom threshold: Int = _parallelEditThreshold) -> (storage: _ListStorage, edited: _EditedRows)? {
        guard !rows.isEmpty, reduced.editCount > 0 else { return nil }
        var idEdits = reduced
        let comparator = areInIncreasingOrder
        let onTwoThreads = idEdits.editCount >= threshold
        guard let newIDs = ids.entries._editingConcurrently(with: &idEdits, from: threshold) else { return nil }
        // The items to place and the stored items to find, each sorted by row order.
        let sorted = LockedState<(insertions: [_RowEditor<Item>.Edit], stored: [_RowEditor<Item>.Edit])>(([], []))
        let found = idEdits
        _forEachConcurrently(onTwoThreads ? 2 : 1) { part in
            if part == 0 {
                let insertions = _RowEditor<Item>.sortedInsertions(of: found, comparator: comparator)
                sorted.withLock { $0.insertions = insertions }
            }
            if part == 1 || !onTwoThreads {
                let stored = _RowEditor<Item>.sortedStoredItems(of: found, comparator: comparator)
                sorted.withLock { $0.stored = stored }
            }
        }
        let (insertions, stored) = sorted.withLock { $0 }
        var rowEdits = _RowEditor(owners: found, sortedInsertions: insertions, sortedStoredItems: stored, comparator: comparator)
        guard let newRows = rows._editingConcurrently(with: &rowEdits, from: threshold) else { return nil }
        var index = _IDIndex<Item>()
        index.entries = newIDs
        let storage = _ListStorage(rows: newRows, ids: index, comparator: areInIncreasingOrder)
        storage._checkInvariants()
        return (storage, rowEdits.edited)
    }
}

/// The id-index side of ``_ListStorage/_editing(_:)``: the last call for each named id,
/// sorted by hash, applied to the index's entries.
@usableFromInline struct _IDEditor<Item: Hashable & DataSourceComparable>: _TreeEditor, Sendable {
    /// Per owner, by ascending hash: the id's hash, the id, and its item after the
    /// calls (`nil` when removed).
    @usableFromInline var hashes: [Int] = []
    @usableFromInline var ids: [Item.ID] = []
    @usableFromInline var newItems: [Item?] = []
    /// Per owner, filled by the pass: the item stored before the calls.
    @usableFromInline var oldItems: [Item?] = []
    /// Per owner: whether an earlier call of the run (one the last call overrides)
    /// removed the id or gave it another item. Such an id is placed anew even when its
    /// final item equals the stored one: one at a time, it left its place in between.
    @usableFromInline var isRewritten: [Bool] = []
    /// For the edits of the current leaf: the slot of the id's entry, or the complement
    /// (`~slot`) of where an absent id goes.
    @usableFromInline var slots: [Int] = []

    /// Reduces `run` to one edit per id, the last call for it winning.
    @inlinable init(_ run: _EditRun<Item>) {
        var callIDs: [Item.ID] = [], callItems: [Item?] = []
        callIDs.reserveCapacity(run.count)
        callItems.reserveCapacity(run.count)
        for call in run.calls {
            switch call {
            case .add(let items):
                for item in items {
                    callIDs.append(item.id)
                    callItems.append(item)
                }
            case .remove(let removed):
                for id in removed {
                    callIDs.append(id)
                    callItems.append(nil)
                }
            }
        }
        var slots: [_HashSlot] = []
        slots.reserveCapacity(callIDs.count)
        for index in callIDs.indices { slots.append(_HashSlot(hash: callIDs[index].hashValue, index: index)) }
        // Equal hashes keep call order, so the last call for an id comes last in its run.
        _sortByHash(&slots)
        hashes.reserveCapacity(slots.count)
        ids.reserveCapacity(slots.count)
        newItems.reserveCapacity(slots.count)
        var position = 0
        while position < slots.count {
            var end = position + 1
            while end < slots.count && slots[end].hash == slots[position].hash { end += 1 }
            for candidate in position ..< end {
                let id = callIDs[slots[candidate].index]
                // Skip a call that a later call for the same id overrides.
                if (candidate + 1 ..< end).contains(where: { callIDs[slots[$0].index] == id }) { continue }
                let final = Self._finalItem(of: id, lastCall: candidate, from: position, slots, callIDs, callItems)
                isRewritten.append((position ..< candidate).contains { callIDs[slots[$0].index] == id && callItems[slots[$0].index] != final })
                hashes.append(slots[candidate].hash)
                ids.append(id)
                newItems.append(final)
            }
            position = end
        }
        oldItems = [Item?](repeating: nil, count: hashes.count)
    }

    /// The item an id is left with by its calls in `slots[first ... lastCall]` (those
    /// naming other ids are skipped), applied one at a time, when it is stored with an
    /// item unequal to them or not at all; `nil` when its last call removes it.
    ///
    /// An add of an item equal to the one the id holds changes nothing, so of a run of
    /// equal items the first stays: the item is the first of the calls' trailing run of
    /// items equal to the last one. (A stored item equal to that run stays instead; the
    /// id pass finds that, see ``isUnchanged(_:)``.)
    ///
    /// - Complexity: O(*c*) for the *c* calls in `slots[first ... lastCall]`.
    @inlinable static func _finalItem(
        of id: Item.ID, lastCall: Int, from first: Int, _ slots: [_HashSlot], _ callIDs: [Item.ID], _ callItems: [Item?]
    ) -> Item? {
        guard let last = callItems[slots[lastCall].index] else { return nil }
        var final = last
        var candidate = lastCall
        while candidate > first {
            candidate -= 1
            guard callIDs[slots[candidate].index] == id else { continue }
            guard let earlier = callItems[slots[candidate].index], earlier == last else { break }
            final = earlier
        }
        return final
    }

    @inlinable var editCount: Int { hashes.count }

    /// Whether the stored item of `edit`'s id equals its item after the calls, and no
    /// earlier call of the run named it differently: then the calls change nothing and
    /// the stored item stays, in the index and in the rows. Known once the pass has
    /// found the stored item (``count(after:in:oldOffset:)``).
    @inlinable func isUnchanged(_ edit: Int) -> Bool {
        guard let old = oldItems[edit], let new = newItems[edit] else { return false }
        return old == new && !isRewritten[edit]
    }

    @inlinable func edit(_ edit: Int, belongsAtOrAfter element: _IDEntry<Item>) -> Bool {
        hashes[edit] >= element.hash
    }

    @inlinable mutating func count(after edits: Range<Int>, in leaf: [_IDEntry<Item>], oldOffset: Int) -> Int? {
        var total = leaf.count
        var cursor = 0
        var previousHash: Int? = nil
        slots.removeAll(keepingCapacity: true)
        for edit in edits {
            let hash = hashes[edit]
            // Two named ids with one hash in one leaf: rare enough to leave to the
            // one-at-a-time path.
            if hash == previousHash { return nil }
            previousHash = hash
            cursor = _CountedBTree<_IDEntry<Item>>._partitioningIndex(of: leaf, from: cursor) { $0.hash >= hash }
            var probe = cursor
            while probe < leaf.count && leaf[probe].hash == hash && leaf[probe].item.id != ids[edit] { probe += 1 }
            if probe < leaf.count && leaf[probe].hash == hash {
                oldItems[edit] = leaf[probe].item
                if newItems[edit] == nil { total -= 1 }
                slots.append(probe)
                cursor = probe + 1
            } else {
                // An absent id whose hash starts this leaf: the run may begin in the leaf before.
                if cursor == 0 && oldOffset > 0 && !leaf.isEmpty && leaf[0].hash == hash { return nil }
                if newItems[edit] != nil { total += 1 }
                slots.append(~probe)  // where it goes: after the run of its hash
                cursor = probe
            }
        }
        return total
    }

    @inlinable mutating func apply(_ edits: Range<Int>, to leaf: [_IDEntry<Item>], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<_IDEntry<Item>>) -> Bool {
        var cursor = 0
        for (edit, slot) in zip(edits, slots) {
            let isFound = slot >= 0, position = isFound ? slot : ~slot
            output.append(contentsOf: leaf, cursor ..< position)
            cursor = position
            if isFound { cursor += 1 }
            guard let item = newItems[edit] else { continue }
            output.append(isUnchanged(edit) ? leaf[position] : _IDEntry(hash: hashes[edit], item: item))
        }
        output.append(contentsOf: leaf, cursor ..< leaf.count)
        return true
    }

    @inlinable mutating func keep(_ subtree: _CountedBTree<_IDEntry<Item>>._Node) -> Bool { true }

    @inlinable mutating func beginLaterPart() {}

    @inlinable mutating func join(
        _ later: _IDEditor, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: _IDEntry<Item>?, firstAfter: _IDEntry<Item>?
    ) -> Bool {
        for edit in laterEdits { oldItems[edit] = later.oldItems[edit] }
        return true
    }
}

/// The row side of ``_ListStorage/_editing(_:)``: removes each owner's old item, inserts
/// its new one, and records both offsets.
@usableFromInline struct _RowEditor<Item: Hashable & DataSourceComparable>: _TreeEditor, Sendable {
    @usableFromInline enum Kind: Int, Sendable {
        /// Remove the old item.
        case remove
        /// The item is unchanged and no earlier call of the run named it differently:
        /// it stays where it is; only record where that is.
        case find
        /// Insert the new item.
        case insert
    }

    /// One edit: the item, what to do with it, and whose it is.
    @usableFromInline struct Edit: Sendable {
        @usableFromInline var key: Item
        @usableFromInline var kind: Kind
        @usableFromInline var owner: Int

        @inlinable init(key: Item, kind: Kind, owner: Int) {
            self.key = key
            self.kind = kind
            self.owner = owner
        }
    }

    /// The edits, in row order.
    @usableFromInline var edits: [Edit] = []
    @usableFromInline let areInIncreasingOrder: _RowOrder<Item>
    @usableFromInline var edited: _EditedRows

    /// The last row written before the current leaf: an element, or the last of a kept
    /// subtree (found only when needed).
    @usableFromInline var lastWritten: Item? = nil
    @usableFromInline var lastKept: _CountedBTree<Item>._Node? = nil
    /// An inserted item written last, which the next row written must sort after.
    @usableFromInline var pendingSuccessorCheck: Item? = nil
    /// Where the current leaf's inserted items went (kept to reuse its storage).
    @usableFromInline var inserted: [Int] = []
    /// Whether this editor applies the later part of a pass cut in two, which starts
    /// without knowing the row written before it.
    @usableFromInline var isLaterPart = false
    /// In the later part: an inserted item written before any other row, which must
    /// sort after the last row of the earlier part.
    @usableFromInline var placedFirst: Item? = nil

    /// Every item the calls place, as insert edits sorted stably by row order: the
    /// owners' new items, found from the calls alone. Those that stay where they are
    /// (``_staysInPlace(_:_:)``) are skipped when the edits are merged.
    @inlinable static func sortedInsertions(of ids: _IDEditor<Item>, comparator: _RowOrder<Item>) -> [Edit] {
        var insertions: [Edit] = []
        insertions.reserveCapacity(ids.editCount)
        for owner in 0 ..< ids.editCount {
            if let new = ids.newItems[owner] { insertions.append(Edit(key: new, kind: .insert, owner: owner)) }
        }
        // The edits themselves are sorted, not their indices: reading keys through
        // indices costs more than moving the edits.
        insertions.sort { comparator($0.key, $1.key) }
        return insertions
    }

    /// The stored items of the owners of `ids` after the id pass, as edits sorted by row
    /// order: a removal for each item that goes or changes, a find for each that stays.
    /// Ties: finds before removals, then owner order (ascending id hash).
    @inlinable static func sortedStoredItems(of ids: _IDEditor<Item>, comparator: _RowOrder<Item>) -> [Edit] {
        // Finds first, then removals, each in owner order: the stable sort by row order
        // alone then leaves ties in the order wanted, with one comparison per step
        // instead of two.
        var stored: [Edit] = [], removals: [Edit] = []
        stored.reserveCapacity(ids.editCount)
        for owner in 0 ..< ids.editCount {
            guard let old = ids.oldItems[owner] else { continue }
            if _staysInPlace(owner, ids) {
                stored.append(Edit(key: old, kind: .find, owner: owner))
            } else {
                removals.append(Edit(key: old, kind: .remove, owner: owner))
            }
        }
        stored.append(contentsOf: removals)
        stored.sort { comparator($0.key, $1.key) }
        return stored
    }

    /// Whether the owner's item stays where it is (see ``_IDEditor/isUnchanged(_:)``).
    @inlinable static func _staysInPlace(_ owner: Int, _ ids: _IDEditor<Item>) -> Bool {
        ids.isUnchanged(owner)
    }

    /// The editor for the owners of `ids` after the id pass, given their new items
    /// sorted by ``sortedInsertions(of:comparator:)`` and their stored items sorted by
    /// ``sortedStoredItems(of:comparator:)``.
    @inlinable init(owners ids: _IDEditor<Item>, sortedInsertions: [Edit], sortedStoredItems stored: [Edit], comparator: _RowOrder<Item>) {
        areInIncreasingOrder = comparator
        edited = _EditedRows(owners: ids.editCount)
        var isPlaced = [Bool](repeating: false, count: ids.editCount)
        for owner in 0 ..< ids.editCount where ids.newItems[owner] != nil && !Self._staysInPlace(owner, ids) {
            isPlaced[owner] = true
            if let old = ids.oldItems[owner], let new = ids.newItems[owner] { edited.isChanged[owner] = old != new }
        }
        // Row order; among ties, old items before new ones, so that an item re-keyed to
        // a tie with itself finds its old row before passing it; otherwise call order.
        edits.reserveCapacity(stored.count + sortedInsertions.count)
        var next = 0
        for insertion in sortedInsertions where isPlaced[insertion.owner] {
            while next < stored.count && !comparator(insertion.key, stored[next].key) {
                edits.append(stored[next])
                next += 1
            }
            edits.append(insertion)
        }
        edits._append(copiesOf: stored, next ..< stored.count)
    }

    @inlinable var editCount: Int { edits.count }

    @inlinable func edit(_ edit: Int, belongsAtOrAfter element: Item) -> Bool {
        !areInIncreasingOrder(edits[edit].key, element)
    }

    @inlinable func count(after range: Range<Int>, in leaf: [Item], oldOffset: Int) -> Int? {
        var total = leaf.count
        for edit in range {
            switch edits[edit].kind {
            case .insert: total += 1
            case .remove: total -= 1
            case .find: break
            }
        }
        return total
    }

    @inlinable mutating func apply(_ range: Range<Int>, to leaf: [Item], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<Item>) -> Bool {
        let less = areInIncreasingOrder
        var cursor = 0
        inserted.removeAll(keepingCapacity: true)
        for edit in range {
            let key = edits[edit].key, owner = edits[edit].owner, kind = edits[edit].kind
            if kind == .insert {
                // The upper bound among the rows left: after every row that does not sort after it.
                let slot = _CountedBTree<Item>._partitioningIndex(of: leaf, from: cursor) { less(key, $0) }
                output.append(contentsOf: leaf, cursor ..< slot)
                cursor = slot
                edited.newOffsets[owner] = newOffset + output.count
                edited.newOrder.append(owner)
                inserted.append(output.count)
                output.append(key)
                continue
            }
            // The stored row: the first that does not sort before it, or a tie after that.
            var slot = _CountedBTree<Item>._partitioningIndex(of: leaf, from: cursor) { !less($0, key) }
            while slot < leaf.count && leaf[slot].id != key.id {
                if less(key, leaf[slot]) { return false }
                slot += 1
            }
            guard slot < leaf.count else { return false }
            output.append(contentsOf: leaf, cursor ..< slot)
            cursor = slot
            cursor += 1
            edited.oldOffsets[owner] = oldOffset + slot
            edited.oldOrder.append(owner)
            if kind == .find {
                edited.newOffsets[owner] = newOffset + output.count
                edited.newOrder.append(owner)
                output.append(key)
            }
        }
        output.append(contentsOf: leaf, cursor ..< leaf.count)
        return _checkTiesAroundInserted(in: output)
    }

    /// Whether each inserted item sorts strictly between the rows written beside it,
    /// here or in the neighbouring leaves.
    @inlinable mutating func _checkTiesAroundInserted(in output: _LeafWriter<Item>) -> Bool {
        let less = areInIncreasingOrder
        if let pending = pendingSuccessorCheck, output.count > 0 {
            guard less(pending, output[0]) else { return false }
            pendingSuccessorCheck = nil
        }
        for slot in inserted {
            let item = output[slot]
            if slot > 0 {
                guard less(output[slot - 1], item) else { return false }
            } else if let previous = lastWritten ?? lastKept.map(_CountedBTree<Item>._last(of:)) {
                guard less(previous, item) else { return false }
            } else if isLaterPart {
                placedFirst = item
            }
            if slot + 1 < output.count {
                guard less(item, output[slot + 1]) else { return false }
            } else {
                pendingSuccessorCheck = item
            }
        }
        if output.count > 0 {
            lastWritten = output[output.count - 1]
            lastKept = nil
        }
        return true
    }

    @inlinable mutating func keep(_ subtree: _CountedBTree<Item>._Node) -> Bool {
        if let pending = pendingSuccessorCheck {
            guard areInIncreasingOrder(pending, subtree.first) else { return false }
            pendingSuccessorCheck = nil
        }
        lastKept = subtree
        lastWritten = nil
        return true
    }

    @inlinable mutating func beginLaterPart() {
        isLaterPart = true
    }

    /// Checks the ties across the seam, and takes over the later part's offsets (its
    /// new offsets counted from the seam) and orders.
    @inlinable mutating func join(_ later: _RowEditor, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: Item?, firstAfter: Item?) -> Bool {
        let less = areInIncreasingOrder
        if let pending = pendingSuccessorCheck, let first = firstAfter {
            guard less(pending, first) else { return false }
        }
        if let placed = later.placedFirst, let last = lastBefore {
            guard less(last, placed) else { return false }
        }
        if firstAfter != nil {
            pendingSuccessorCheck = later.pendingSuccessorCheck
            lastWritten = later.lastWritten
            lastKept = later.lastKept
        }
        for edit in laterEdits {
            let owner = later.edits[edit].owner
            if later.edited.oldOffsets[owner] >= 0 { edited.oldOffsets[owner] = later.edited.oldOffsets[owner] }
            if later.edited.newOffsets[owner] >= 0 { edited.newOffsets[owner] = emittedBefore + later.edited.newOffsets[owner] }
        }
        edited.oldOrder.append(contentsOf: later.edited.oldOrder)
        edited.newOrder.append(contentsOf: later.edited.newOrder)
        return true
    }
}

/// Bulk edits naming at least this many ids run each pass in two halves on two threads,
/// and sort the items to place and the items to find on two threads.
@usableFromInline let _parallelEditThreshold = 256

/// Runs of `add` and `remove` calls naming at least this many rows are applied in bulk
/// (when they name fewer than an eighth of the rows; beyond that, whole-list merges and
/// walks take over).
@usableFromInline let _bulkEditThreshold = 32

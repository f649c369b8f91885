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
        comparator.sort(&insertions) { $0.key }
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
        comparator.sort(&stored) { $0.key }
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
            if let old = ids.oldItems[owner], let new = ids.newItems[owner] { edited.isChanged[owner] = !old.isContentEqual(to: new) }
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
                let slot = less.bound(of: key, .upper, in: leaf, from: cursor)
                output.append(contentsOf: leaf, cursor ..< slot)
                cursor = slot
                edited.newOffsets[owner] = newOffset + output.count
                edited.newOrder.append(owner)
                inserted.append(output.count)
                output.append(key)
                continue
            }
            // The stored row: the first that does not sort before it, or a tie after that.
            var slot = less.bound(of: key, .lower, in: leaf, from: cursor)
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

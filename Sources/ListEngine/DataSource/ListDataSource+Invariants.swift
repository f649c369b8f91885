import Synchronization

extension ListDataSource {
    /// Checks a batch before it is sent, when compiled with `LIST_INTERNAL_CHECKS`:
    /// the storage is consistent, both forms of the batch turn `old` into `new`, the
    /// sets are exactly the defined ones, and ids are unique. Unsorted rows (only a
    /// comparator that is not a strict weak order can cause them) are counted in
    /// ``_orderViolationCount`` rather than trapping, since that is bad input, not a bug.
    @inlinable func _checkInvariants(of batch: ChangeBatch<Item>) {
        #if LIST_INTERNAL_CHECKS
        _assertOnDiffQueue()
        batch._checkInvariants()
        if !batch.new._storage._isSorted {
            _orderViolations.add(1, ordering: .relaxed)
        }
        #endif
    }
}

extension ChangeBatch {
    /// Traps unless the batch satisfies invariants 1 and 2 and `new` holds each id once.
    /// Costs O(*n*); meant for tests and `LIST_INTERNAL_CHECKS` builds.
    @inlinable func _checkInvariants() {
        let oldRows = Array(old), newRows = Array(new)
        old._storage._checkInvariants()
        new._storage._checkInvariants()
        precondition(_applyingSets(to: oldRows) == newRows, "batch sets do not turn old into new: \(self)")
        var stepped = oldRows
        apply(to: &stepped)
        precondition(stepped == newRows, "batch steps do not turn old into new: \(self)")

        var oldOffsets: [Item.ID: Int] = [:], newOffsets: [Item.ID: Int] = [:]
        for (offset, item) in oldRows.enumerated() { oldOffsets[item.id] = offset }
        for (offset, item) in newRows.enumerated() { newOffsets[item.id] = offset }
        precondition(newOffsets.count == newRows.count, "new holds an id twice")
        let expectedDeletions = oldRows.indices.filter { newOffsets[oldRows[$0].id] == nil }
        let expectedInsertions = newRows.indices.filter { oldOffsets[newRows[$0].id] == nil }
        let expectedReloads = newRows.indices.filter { offset in
            oldOffsets[newRows[offset].id].map { oldRows[$0] != newRows[offset] } ?? false
        }
        precondition(deletions == expectedDeletions, "deletions \(deletions) ≠ \(expectedDeletions)")
        precondition(insertions == expectedInsertions, "insertions \(insertions) ≠ \(expectedInsertions)")
        precondition(reloads == expectedReloads, "reloads \(reloads) ≠ \(expectedReloads)")
    }
}

extension _ListStorage {
    /// Whether every row is not ordered before its predecessor.
    @inlinable var _isSorted: Bool {
        var previous: Item?
        for row in rows {
            if let previous, areInIncreasingOrder(row, previous) { return false }
            previous = row
        }
        return true
    }

    /// Traps unless rows and id index agree (each id once, same items). Only with
    /// `LIST_INTERNAL_CHECKS`; costs O(*n* log *n*).
    @inlinable func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        rows._checkInvariants()
        ids._checkInvariants()
        precondition(rows.count == ids.count, "rows (\(rows.count)) and id index (\(ids.count)) disagree")
        var seen = Set<Item.ID>(minimumCapacity: rows.count)
        for row in rows {
            precondition(seen.insert(row.id).inserted, "id \(row.id) is stored twice")
            precondition(ids[row.id] == row, "id index holds a different item for \(row.id)")
        }
        #endif
    }
}

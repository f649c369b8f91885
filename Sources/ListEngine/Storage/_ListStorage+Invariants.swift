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

    /// Traps unless each id is stored once and the id index, kept exactly when the
    /// rows are more than ``_Tuning/unindexedListMaximumRows``, holds every row's item.
    /// Only with `LIST_INTERNAL_CHECKS`; costs O(*n* log *n*).
    @inlinable func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        rows._checkInvariants()
        ids._checkInvariants()
        let indexed = Self._keepsIndex(rowCount: rows.count)
        precondition(
            indexed ? ids.count == rows.count : ids.isEmpty,
            "rows (\(rows.count)) and id index (\(ids.count)) disagree")
        var seen = Set<Item.ID>(minimumCapacity: rows.count)
        for row in rows {
            precondition(seen.insert(row.id).inserted, "id \(row.id) is stored twice")
            precondition(!indexed || ids[row.id] == row, "id index holds a different item for \(row.id)")
        }
        #endif
    }
}

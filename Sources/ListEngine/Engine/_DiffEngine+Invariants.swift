import Synchronization

extension _DiffEngine {
    /// Checks a batch before it is sent, when compiled with `LIST_INTERNAL_CHECKS`:
    /// the storage is consistent, both forms of the batch turn `old` into `new`, the
    /// sets are exactly the defined ones, ids are unique (invariants 1, 2 and 4), and
    /// only rows the batch's calls `touched` move, as few as possible (invariant 3).
    /// Unsorted rows (only a comparator that is not a strict weak order can cause them)
    /// are counted in ``orderViolations`` rather than trapping, since that is bad input,
    /// not a bug.
    @inlinable func _checkInvariants(of batch: ChangeBatch<Item>, touched: _TouchedRows<Item.ID>) {
        #if LIST_INTERNAL_CHECKS
        _assertOnQueue()
        batch._checkInvariants()
        if let sectioning {
            batch._checkMovesAreMinimal(isTouched: touched._isTouched(in: batch.old), isSectionChanged: sectioning.isSectionChanged)
            sectioning.checkInvariants(batch)
        } else {
            batch._checkMovesAreMinimal(isTouched: touched._isTouched(in: batch.old))
        }
        if !batch.new._storage._isSorted {
            orderViolations.add(1, ordering: .relaxed)
        }
        #endif
    }
}

extension _ListStorage {
    /// Applies `run` one call at a time, each item and id in order: the meaning that
    /// ``_editing(_:)`` reproduces in bulk.
    ///
    /// - Complexity: O(*k* log *n*) for *k* items and ids.
    @inlinable mutating func apply(_ run: _EditRun<Item>) {
        var adds: [Item] = []
        run.forEachCall { call in
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
    /// two threads, with the same result. A large id index takes the ids into its
    /// overlay (see ``_IDIndex/_editing(with:concurrentFrom:overlayMinimum:overlayFraction:)``,
    /// whose last two parameters `overlay` passes on); into an empty one, on two threads,
    /// the overlay is written after the sort of the stored items, while the items to
    /// place are sorted on the other thread.
    ///
    /// - Complexity: O(*k* log *k* + *k* log *n*) comparisons and O(*l* · *b*) copies,
    ///   for *k* named ids falling into *l* leaves of *b* rows; untouched leaves are shared.
    @inlinable func _editing(
        _ run: _EditRun<Item>, concurrentFrom threshold: Int = _Tuning.parallelEditMinimumIDs, overlay: (minimum: Int, fraction: Int) = _ListStorage._overlay
    ) -> (storage: _ListStorage, edited: _EditedRows)? {
        guard !rows.isEmpty, run.count > 0 else { return nil }
        return _editing(reduced: _IDEditor<Item>(run), concurrentFrom: threshold, overlay: overlay)
    }

    /// When a bulk edit writes into the id index's overlay: from this many main entries,
    /// for edits of at most one id in this many.
    @inlinable static var _overlay: (minimum: Int, fraction: Int) {
        (_Tuning.idOverlayMinimumEntries, _Tuning.idOverlayListFraction)
    }

    /// ``_editing(_:concurrentFrom:)`` for a run already reduced to one edit per id.
    @inlinable func _editing(
        reduced: _IDEditor<Item>, concurrentFrom threshold: Int = _Tuning.parallelEditMinimumIDs, overlay: (minimum: Int, fraction: Int) = _ListStorage._overlay
    ) -> (storage: _ListStorage, edited: _EditedRows)? {
        var leftovers = _BulkEditLeftovers<Item>()
        return _editing(reduced: reduced, concurrentFrom: threshold, overlay: overlay, leavingWorkIn: &leftovers)
    }

    /// ``_editing(reduced:concurrentFrom:overlay:)``, which moves the arrays it worked
    /// with into `leftovers` instead of freeing them, for the caller to free once the
    /// edited storage has been put to use (see ``_BulkEditLeftovers``).
    @inlinable func _editing(
        reduced: _IDEditor<Item>, concurrentFrom threshold: Int = _Tuning.parallelEditMinimumIDs, overlay: (minimum: Int, fraction: Int) = _ListStorage._overlay,
        leavingWorkIn leftovers: inout _BulkEditLeftovers<Item>
    ) -> (storage: _ListStorage, edited: _EditedRows)? {
        guard !rows.isEmpty, reduced.editCount > 0 else { return nil }
        var idEdits = reduced
        let comparator = areInIncreasingOrder
        let onTwoThreads = idEdits.editCount >= threshold
        let ids = _fullIndex
        // Into an empty overlay, the stored items are the main entries': found first, they
        // let the overlay be written beside the sort of the items to place, rather than
        // before both sorts.
        let writesOverlayBeside = onTwoThreads && ids._takesIntoEmptyOverlay(idEdits, overlayMinimum: overlay.minimum, overlayFraction: overlay.fraction)
        var index: _IDIndex<Item>? = nil
        if writesOverlayBeside {
            idEdits.oldItems = ids._mainItems(of: idEdits, concurrently: true)
        } else {
            guard let edited = ids._editing(with: &idEdits, concurrentFrom: threshold, overlayMinimum: overlay.minimum, overlayFraction: overlay.fraction) else {
                return nil
            }
            index = edited
        }
        // The items to place and the stored items to find, each sorted by row order, and
        // the row editor made from both.
        typealias Edits = [_RowEditor<Item>.Edit]
        let sorted = LockedState<(insertions: Edits, stored: Edits?, index: _IDIndex<Item>?, rowEditor: _RowEditor<Item>?)>(([], nil, index, nil))
        let found = idEdits
        // The items to place are sorted on the calling thread; the overlay's leaves are
        // written on a bulk thread.
        _forEachConcurrently(onTwoThreads ? 2 : 1, callerRunsFirstPart: true) { part in
            if part == 0 {
                let insertions = _RowEditor<Item>.sortedInsertions(of: found, comparator: comparator)
                // The stored items, fewer, are usually sorted by now: the row editor is then
                // made here, while the other thread writes the overlay.
                if let stored = sorted.withLock({ state -> Edits? in
                    state.insertions = insertions
                    return state.stored
                }) {
                    let rowEditor = _RowEditor(owners: found, sortedInsertions: insertions, sortedStoredItems: stored, comparator: comparator)
                    sorted.withLock { $0.rowEditor = rowEditor }
                }
            }
            if part == 1 || !onTwoThreads {
                let stored = _RowEditor<Item>.sortedStoredItems(of: found, comparator: comparator)
                sorted.withLock { $0.stored = stored }
            }
            // After the sort of the stored items, while the items to place, as many or
            // more, are sorted on the other thread.
            if writesOverlayBeside && part == 1 {
                var edits = found
                let written = ids._editingOverlay(with: &edits, concurrently: false, storedItemsAreMainItems: true)
                sorted.withLock { $0.index = written }
            }
        }
        // The row editor is moved out, so that the pass's writes to it copy nothing.
        let (insertions, sortedStored, written, madeRowEditor) = sorted.withLock { ($0.insertions, $0.stored, $0.index, $0.rowEditor.take()) }
        guard let index = written else { return nil }
        let stored = sortedStored ?? []
        var rowEdits = madeRowEditor ?? _RowEditor(owners: found, sortedInsertions: insertions, sortedStoredItems: stored, comparator: comparator)
        guard let newRows = rows._editingConcurrently(with: &rowEdits, from: threshold) else { return nil }
        let storage = _ListStorage(rows: newRows, ids: index, comparator: areInIncreasingOrder)
        storage._checkInvariants()
        leftovers.keep(found, insertions, stored, rowEdits)
        return (storage, rowEdits.edited)
    }
}

/// The arrays a bulk edit worked with: the calls, their reduction to one edit per id,
/// and the row edits sorted and merged.
///
/// Freeing them takes a few hundred microseconds for ten thousand ids, each item
/// released in several arrays. Freed where the edit ends, on the diff queue, they would
/// hold up the batch; the diff engine keeps the last bulk edit's
/// (``_DiffEngine/bulkEditLeftovers``) and its batch takes them, to be freed with the rows
/// it replaced, by the last renderer's queue done with it (``_SharedBatch``).
@usableFromInline struct _BulkEditLeftovers<Item: Hashable & DataSourceComparable>: Sendable {
    /// The calls, and their reduction before the id pass (the caller's to keep).
    @usableFromInline var calls: _EditRun<Item>? = nil
    @usableFromInline var reduced: _IDEditor<Item>? = nil
    @usableFromInline var found: _IDEditor<Item>? = nil
    @usableFromInline var insertions: [_RowEditor<Item>.Edit] = []
    @usableFromInline var storedItems: [_RowEditor<Item>.Edit] = []
    @usableFromInline var rowEditor: _RowEditor<Item>? = nil

    @inlinable init() {}

    /// Keeps a bulk edit's reduction after its id pass, its sorted row edits and its row
    /// editor, in place of another edit's.
    @inlinable mutating func keep(
        _ found: _IDEditor<Item>, _ insertions: [_RowEditor<Item>.Edit], _ storedItems: [_RowEditor<Item>.Edit], _ rowEditor: _RowEditor<Item>
    ) {
        self.found = found
        self.insertions = insertions
        self.storedItems = storedItems
        self.rowEditor = rowEditor
    }
}

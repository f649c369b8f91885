/// How the engine applies a change: a pure choice from counts, with the same result
/// whichever way is chosen.
///
/// Every way gives the rows that applying the calls one element at a time gives (see
/// the Semantics article); they differ only in cost. The cutoffs are ``_Tuning``'s.
@usableFromInline enum _EditStrategy: Equatable, Sendable {
    /// One `add` of one item, as the first change since the last batch: one search
    /// places it and records where it was and is, so the batch needs no search.
    case placeOne
    /// One pass over the id index and one over the rows, rebuilding each touched leaf
    /// once and recording where every named row was and is. It gives up, and the calls
    /// are applied one at a time, when a row it places ties with a row beside it.
    case bulkEdit
    /// Build the rows anew: from the items, into an empty list, or from the rows that
    /// stay, when many go.
    case rebuild
    /// Merge the new items with every row in one pass.
    case merge
    /// Find and change each row in turn.
    case oneAtATime

    /// The way to apply a run of `add` and `remove` calls: ``placeOne``, ``bulkEdit`` or
    /// ``oneAtATime`` (whose adds then choose with ``forAdding(itemCount:rowCount:)``).
    ///
    /// - Parameters:
    ///   - namedRows: the items and ids the calls name.
    ///   - isOneItemAdded: whether the run is one `add` of one item.
    ///   - isFirstChange: whether nothing changed since the last batch. Only then can
    ///     the rows record where each named row was, for the batch.
    ///   - rowCount: the rows in the list before the run.
    /// - Complexity: O(1).
    @inlinable static func forRun(namedRows: Int, isOneItemAdded: Bool, isFirstChange: Bool, rowCount: Int) -> Self {
        guard isFirstChange else { return .oneAtATime }
        if isOneItemAdded { return .placeOne }
        if isBulkEditWorthwhile(namedRows: namedRows, rowCount: rowCount) { return .bulkEdit }
        return .oneAtATime
    }

    /// Whether a bulk edit of a run naming `namedRows` rows of `rowCount` waits a little
    /// for the caller's next `add` or `remove` call to join it, when none came while the
    /// run was reduced. Such an edit copies most leaves of a large list and takes
    /// milliseconds; a call that missed it would make a second batch that copies them
    /// all again while renderers may still hold the first one's old rows, so that three
    /// versions of the list are in memory at once.
    ///
    /// - Complexity: O(1).
    @inlinable static func waitsForLateCalls(namedRows: Int, rowCount: Int) -> Bool {
        namedRows >= _Tuning.lateCallWaitMinimumRows && rowCount >= _Tuning.lateCallWaitMinimumListRows
    }

    /// Whether a run naming `namedRows` rows of `rowCount` is large enough for a bulk
    /// edit to pay and small enough for it to beat whole-list merges. (A run that late
    /// calls made larger still goes in one pass: see `_DiffEngine.apply`.)
    ///
    /// - Complexity: O(1).
    @inlinable static func isBulkEditWorthwhile(namedRows: Int, rowCount: Int) -> Bool {
        namedRows >= _Tuning.bulkEditMinimumRows && namedRows * _Tuning.bulkEditListFraction < rowCount
    }

    /// The way to add `itemCount` items, one call at a time, to `rowCount` rows:
    /// ``rebuild`` into an empty list (more than one item), ``merge`` for many items
    /// relative to the rows, else ``oneAtATime``. A rebuild or merge that finds repeated
    /// ids or ties falls back to the next way.
    ///
    /// - Complexity: O(1).
    @inlinable static func forAdding(itemCount: Int, rowCount: Int) -> Self {
        if rowCount == 0, itemCount > 1 { return .rebuild }
        if itemCount >= _Tuning.mergeMinimumItems, itemCount * _Tuning.mergeListFraction >= rowCount { return .merge }
        return .oneAtATime
    }

    /// The way to remove `removedCount` of `rowCount` rows: ``rebuild`` the rows that stay
    /// when many go, else ``oneAtATime``.
    ///
    /// - Complexity: O(1).
    @inlinable static func forRemoving(removedCount: Int, rowCount: Int) -> Self {
        removedCount * _Tuning.rebuildRemovedFraction > rowCount ? .rebuild : .oneAtATime
    }

    /// Whether a batch whose calls touched `touched` ids is computed by walking both
    /// snapshots, rather than by finding each touched row in each.
    ///
    /// - Complexity: O(1).
    @inlinable static func walksBothSnapshots(touched: Int, oldCount: Int, newCount: Int) -> Bool {
        touched * _Tuning.walkBothSnapshotsFraction >= oldCount + newCount
    }

    /// Whether a sectioned batch that changes `changedRows` rows finds its sections by
    /// walking its snapshots' rows for every section's start (the `old` one's are
    /// usually kept from the batch before), rather than by searching for the bounds of
    /// each section a changed row is in.
    ///
    /// - Complexity: O(1).
    @inlinable static func walksSections(changedRows: Int, sectionCount: Int, rowCount: Int) -> Bool {
        changedRows * _Tuning.walkSectionsChangedRowWeight >= sectionCount + rowCount / _Tuning.leafMaximumElements
    }

    /// Whether building rows from `itemCount` items is worth splitting between two
    /// threads.
    ///
    /// - Complexity: O(1).
    @inlinable static func buildsOnTwoThreads(itemCount: Int) -> Bool {
        itemCount >= _Tuning.parallelBuildMinimumItems
    }
}

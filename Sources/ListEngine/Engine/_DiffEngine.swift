import Dispatch
import Synchronization

/// The diff engine: the rows as the diff queue sees them, ahead of what renderers have
/// been sent, and the batch of everything applied since the last one.
///
/// The drain hands it the pipeline's steps in order; it applies each to the storage,
/// choosing how with ``_EditStrategy`` and noting which rows the calls named (only
/// those may move), and ``takeBatch()`` turns what was applied into a ``ChangeBatch``
/// against the last published snapshot. It knows nothing of callers, renderers or the
/// pipeline: the drain passes it the one thing it may ask for, the calls that may join
/// a growing run.
///
/// Safety of `@unchecked Sendable`: every stored property is read and written only by
/// code running on the data source's serial diff queue (the drain and what it calls),
/// so no two threads ever access them at once; under `LIST_INTERNAL_CHECKS` each entry
/// point asserts that with `dispatchPrecondition`. `orderViolations` is atomic. For the
/// same reason the mutable properties are not checked for exclusive access at run time
/// (`@exclusivity(unchecked)`): one thread uses them, and no method holds an access to
/// one across a call that reaches it again.
@usableFromInline final class _DiffEngine<Item: Hashable & DataSourceComparable>: @unchecked Sendable {
    /// The diff queue, for the checks that everything runs on it.
    @usableFromInline let queue: DispatchQueue
    /// The rows with every applied step.
    @exclusivity(unchecked) @usableFromInline var storage: _ListStorage<Item>
    /// The snapshot of the last batch taken (what renderers will have).
    @exclusivity(unchecked) @usableFromInline var published: ListSnapshot<Item>
    /// The rows the steps applied since the last batch named; `nil` while none was applied.
    @exclusivity(unchecked) @usableFromInline var touched: _TouchedRows<Item.ID>? = nil
    /// The root leaf of the rows of the snapshot the last batch replaced, when the rows
    /// fit in one leaf: the next one-row change copies the current root into it if
    /// nothing else holds it by then (see ``_CountedBTree/_makeRootUnique(reusing:replaying:)``).
    /// It keeps that version's rows alive until the next change, at most one leaf.
    @exclusivity(unchecked) @usableFromInline var spareRowRoot: _CountedBTree<Item>._Node? = nil
    /// The change that took `spareRowRoot`'s rows to the published ones, when the last
    /// batch was one row placed (see ``placedRow``). Its `after` is the published root
    /// leaf, which it holds until the next one-row change or the next batch.
    @exclusivity(unchecked) @usableFromInline var spareRowEdit: _CountedBTree<Item>._RootLeafEdit? = nil
    /// The same for the id index.
    @exclusivity(unchecked) @usableFromInline var spareIDRoot: _CountedBTree<_IDEntry<Item>>._Node? = nil
    /// Where the row placed by the first change since the last batch was and is, when
    /// that change was one row placed (`placeOne`) into the published rows themselves.
    @exclusivity(unchecked) @usableFromInline var placedRow: (old: Int?, new: Int)? = nil
    /// The arrays the last bulk edit worked with, kept for its batch, which takes them
    /// (``takeBulkEditLeftovers()``) to be freed with it on the renderers' side.
    @exclusivity(unchecked) @usableFromInline var bulkEditLeftovers: _BulkEditLeftovers<Item>? = nil
    /// How many batches were found unsorted under `LIST_INTERNAL_CHECKS`.
    @usableFromInline let orderViolations = Atomic<Int>(0)
    /// How the rows form sections, for a ``SectionedListDataSource``'s rows; `nil` for a
    /// list without sections.
    @usableFromInline let sectioning: _Sectioning<Item>?

    @inlinable init(storage: _ListStorage<Item>, published: ListSnapshot<Item>, queue: DispatchQueue, sectioning: _Sectioning<Item>? = nil) {
        self.storage = storage
        self.published = published
        self.queue = queue
        self.sectioning = sectioning
    }

    // MARK: - Steps

    /// Applies a run of `add` and `remove` calls and notes what they touched.
    ///
    /// The run is applied as ``_EditStrategy/forRun(namedRows:isOneItemAdded:isFirstChange:rowCount:)``
    /// chooses. A bulk edit first reduces the run to one edit per id (hashing and sorting
    /// the named ids); when the run may grow, it then calls `joinLateCalls`, which moves
    /// calls submitted meanwhile into the run, and reduces again if any joined (hashing
    /// only the ids of the calls that joined). So a
    /// caller that makes several such calls in a row gets one batch and one pass over
    /// the touched leaves, and the run's batch waits at most one reduction for them,
    /// plus, for a run of many rows of a large list that no call joined, a short wait
    /// for one (``_EditStrategy/waitsForLateCalls(namedRows:rowCount:)``).
    ///
    /// - Parameters:
    ///   - run: the calls, in order.
    ///   - joinLateCalls: for a run that may grow, moves later calls into it and returns
    ///     whether any joined, waiting a little for one when told to; `nil` for a run
    ///     that may not.
    @inlinable func apply(_ run: _EditRun<Item>, joiningLateCalls joinLateCalls: ((inout _EditRun<Item>, _ waiting: Bool) -> Bool)?) {
        _assertOnQueue()
        let isOneItemAdded = run.callCount == 1 && run.count == 1 && { if case .add = run.firstCall { true } else { false } }()
        let rowCount = storage.count
        switch _EditStrategy.forRun(namedRows: run.count, isOneItemAdded: isOneItemAdded, isFirstChange: touched == nil, rowCount: rowCount) {
        case .placeOne:
            guard case .add(let items) = run.firstCall else { preconditionFailure("a one-item run is an add") }
            // The placement is the whole change from the published rows only if it starts
            // from them: after a batch that showed nothing, the storage may hold rows that
            // differ from the published ones in what content equality leaves out.
            let startsFromPublished = storage.rows.root === published._storage.rows.root
            _reuseSpareRoots()
            // An item equal to the stored one changes nothing, and so touches nothing.
            if let (old, new) = storage._place(items[0]) {
                touched = .edited(_EditedRows(oneRowFrom: old, to: new))
                if startsFromPublished { placedRow = (old, new) }
            }
            return
        case .bulkEdit:
            var run = run
            var reduced = _IDEditor<Item>(run)
            if let joinLateCalls,
               joinLateCalls(&run, _EditStrategy.waitsForLateCalls(namedRows: run.count, rowCount: rowCount)) {
                reduced = _IDEditor<Item>(run, extending: reduced)
            }
            // What the edit works with, the calls included, goes with its batch, to be
            // freed with the rows it replaced (see ``_BulkEditLeftovers``).
            var leftovers = _BulkEditLeftovers<Item>()
            defer {
                leftovers.calls = run
                leftovers.reduced = reduced
                bulkEditLeftovers = leftovers
            }
            // A run that late calls made too large for a bulk edit to beat merges still
            // goes in one pass, as several such calls do below: one at a time, a
            // removal would go one id at a time.
            if let (edited, rows) = storage._editing(reduced: reduced, leavingWorkIn: &leftovers) {
                storage = edited
                touched = .edited(rows)
                return
            }
            // A tie: the calls go one at a time.
            applyOneAtATime(run)
        default:
            // Several calls too large together for a bulk edit to pay over a merge (a
            // `remove(ids:)` and an `add` that coalesced, say) would go one call at a
            // time, a removal one id at a time: one pass over the rows still costs less,
            // unless a placed item ties.
            var leftovers = _BulkEditLeftovers<Item>()
            if touched == nil, run.callCount > 1, run.count >= _Tuning.bulkEditMinimumRows,
               let (edited, rows) = storage._editing(reduced: _IDEditor<Item>(run), leavingWorkIn: &leftovers) {
                storage = edited
                touched = .edited(rows)
                leftovers.calls = run
                bulkEditLeftovers = leftovers
                return
            }
            applyOneAtATime(run)
        }
    }

    /// Applies `run` call by call and notes its ids as touched.
    @inlinable func applyOneAtATime(_ run: _EditRun<Item>) {
        if published.isEmpty {
            // From an empty list every row is an insertion: no need to collect ids.
            touched = .all
        } else {
            // One union for the whole run: a set grown one call at a time rehashes its
            // ids again at every doubling.
            var ids: [Item.ID] = []
            ids.reserveCapacity(run.count)
            run.forEachCall { call in
                switch call {
                case .add(let items): for item in items { ids.append(item.id) }
                case .remove(let removed): ids.append(contentsOf: removed)
                }
            }
            touch(ids)
        }
        _reuseSpareRoots()
        storage.apply(run)
    }

    /// Before a change made in place: a root leaf shared with the published snapshot is
    /// copied into the spare root of its tree, if nothing else holds that any more.
    @inlinable func _reuseSpareRoots() {
        let edit = spareRowEdit
        spareRowEdit = nil
        #if LIST_INTERNAL_CHECKS
        let rows = spareRowRoot == nil ? nil : Array(storage.rows)
        #endif
        storage.rows._makeRootUnique(reusing: &spareRowRoot, replaying: edit)
        #if LIST_INTERNAL_CHECKS
        if let rows {
            precondition(Array(storage.rows) == rows, "bringing the spare root leaf up to date changed the rows")
        }
        #endif
        storage.ids.entries._makeRootUnique(reusing: &spareIDRoot)
    }

    /// Removes every row; every row counts as touched.
    @inlinable func removeAll() {
        _assertOnQueue()
        storage.removeAll()
        touched = .all
    }

    /// Replaces the rows (the meaning of ``ListDataSource/replaceAll(with:)``); every row
    /// counts as touched.
    @inlinable func replaceAll(with items: [Item]) {
        _assertOnQueue()
        storage.replaceAll(with: items)
        touched = .all
    }

    /// Re-sorts the rows under a new order (within sections, for a sectioned list);
    /// every row counts as touched.
    @inlinable func sort(by comparator: @escaping @Sendable (Item, Item) -> Bool) {
        _assertOnQueue()
        storage.sort(by: sectioning?.rowOrder(comparator) ?? _RowOrder(comparator))
        touched = .all
    }

    /// Runs `change` on each listed row as the steps so far left it, then adds the
    /// results as one `add` call. An id listed again is changed again, from the result
    /// of its previous change; an absent id is skipped.
    ///
    /// - Complexity: O(*k* log *n*) for *k* ids, plus the changes.
    @inlinable func update(_ ids: [Item.ID], _ change: @Sendable (inout Item) -> Void) {
        _assertOnQueue()
        var items: [Item] = []
        var placeOfID: [Item.ID: Int] = [:]
        for id in ids {
            let place = placeOfID[id]
            guard var item = place.map({ items[$0] }) ?? storage[id: id] else { continue }
            change(&item)
            precondition(item.id == id, "update(id:_:) changed the id of \(id) to \(item.id); a change must keep the id")
            if let place {
                items[place] = item
            } else {
                placeOfID[id] = items.count
                items.append(item)
            }
        }
        guard !items.isEmpty else { return }
        var run = _EditRun<Item>()
        run.add(items)
        apply(run, joiningLateCalls: nil)
    }

    /// Removes the rows `shouldBeRemoved` selects among the rows as the steps so far
    /// left them.
    ///
    /// - Complexity: O(*n*) calls of the predicate, plus O(*k* log *n*) for *k* removed rows.
    @inlinable func remove(where shouldBeRemoved: @Sendable (Item) -> Bool) {
        _assertOnQueue()
        var ids: [Item.ID] = []
        for row in storage.rows where shouldBeRemoved(row) { ids.append(row.id) }
        guard !ids.isEmpty else { return }
        var run = _EditRun<Item>()
        run.remove(ids)
        apply(run, joiningLateCalls: nil)
    }

    /// Runs `edits` on a ``ListEdits`` view of the rows as the steps so far left them;
    /// its pending `add` and `remove` calls are applied when it returns.
    @inlinable func perform(_ edits: (inout ListEdits<Item>) -> Void) {
        _assertOnQueue()
        let scope = _EditScope()
        var view = ListEdits(_engine: self, scope: scope)
        edits(&view)
        view._applyPending()
        scope.isOpen = false
    }

    @inlinable func touch(_ ids: [Item.ID]) {
        switch touched {
        case .all:
            return
        case .ids(var set):
            touched = nil  // release the enum's reference, so the union does not copy the set
            set.formUnion(ids)
            touched = .ids(set)
        case .edited(let rows):
            // A later change before the next batch (a `perform`'s edits after its first
            // run): the rows the first change edited become ids, read from the published
            // rows and from the storage as that change left it (this is called before the
            // later change is applied), so that rows no call named still never move.
            touched = nil
            var set = Set<Item.ID>(minimumCapacity: rows.oldOffsets.count + ids.count)
            for offset in rows.oldOffsets where offset >= 0 { set.insert(published[offset].id) }
            for offset in rows.newOffsets where offset >= 0 { set.insert(storage[offset].id) }
            set.formUnion(ids)
            touched = .ids(set)
        case nil:
            touched = .ids(Set(ids))
        }
    }

    /// Hands over what the last bulk edit worked with, if anything is kept (see
    /// ``bulkEditLeftovers``), and keeps nothing.
    ///
    /// - Complexity: O(1).
    @inlinable func takeBulkEditLeftovers() -> _BulkEditLeftovers<Item>? {
        _assertOnQueue()
        return bulkEditLeftovers.take()
    }

    // MARK: - Batches

    /// The batch from the published snapshot to the rows as they are now, which becomes
    /// the published snapshot; `nil` when nothing visible changed since the last batch.
    ///
    /// - Complexity: O(*k* log *n*) for *k* touched rows of *n*; O(*n* log *n*) when
    ///   every row was touched.
    @inlinable func takeBatch() -> ChangeBatch<Item>? {
        _assertOnQueue()
        let placedRow = placedRow
        self.placedRow = nil
        guard let touched else { return nil }
        self.touched = nil
        // The new snapshot takes the published one's place, and the published one moves
        // into the batch as its `old` without a copy; the batch's `new` is the new
        // snapshot's one copy.
        var old = ListSnapshot(_storage: storage, version: published.version + 1)
        swap(&old, &published)
        var batch = ChangeBatch._compute(from: consume old, to: published, touched: touched, isSectionChanged: sectioning?.isSectionChanged)
        // Nothing visible changed: the published snapshot, the one renderers have, stays,
        // so the next batch's `old` is identical to it (its order, if a sort changed it,
        // is the one its rows are sorted by).
        guard !batch.isEmpty else {
            published = batch.old
            return nil
        }
        if let sectioning {
            batch = sectioning.sectioned(batch)
            published = batch.new  // with its sections
        }
        _checkInvariants(of: batch, touched: touched)
        spareRowRoot = Self._leafRoot(of: batch.old._storage.rows)
        // One row placed, and nothing after it (any later change turns `touched` into
        // ids or all rows): that placement is the whole change from the spare's rows.
        spareRowEdit = nil
        if let placedRow, case .edited = touched, spareRowRoot != nil, let after = Self._leafRoot(of: storage.rows) {
            spareRowEdit = _CountedBTree._RootLeafEdit(removedAt: placedRow.old, insertedAt: placedRow.new, after: after)
        }
        spareIDRoot = Self._leafRoot(of: batch.old._storage.ids.entries)
        return batch
    }

    /// The root of `tree` when it is a leaf.
    @inlinable static func _leafRoot<Element>(of tree: _CountedBTree<Element>) -> _CountedBTree<Element>._Node? {
        guard let root = tree.root, root.isLeaf else { return nil }
        return root
    }

    @inlinable func _assertOnQueue() {
        #if LIST_INTERNAL_CHECKS
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}

import Dispatch

extension ListDataSource {
    /// Adds or updates items (see the type's discussion for the exact meaning).
    ///
    /// Returns at once; the batch is computed on the diff queue.
    /// - Parameter items: the items; a repeated id means the last one wins.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n*) on the diff queue, *k* = items passed.
    @inlinable public func add(_ items: some Sequence<Item>) {
        _submit(.add(Array(items)))
    }

    /// Adds or updates one item.
    ///
    /// Returns at once; the batch is computed on the diff queue.
    /// - Parameter item: the item; if its id is known, it replaces the stored item.
    /// - Complexity: O(1) on the caller; O(log *n*) on the diff queue.
    @inlinable public func add(_ item: Item) {
        _submit(.add([item]))
    }

    /// Removes the rows with these ids; unknown ids are ignored.
    ///
    /// Returns at once; the batch is computed on the diff queue.
    /// - Parameter ids: the ids of the rows to remove.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n*) on the diff queue, *k* = ids passed.
    @inlinable public func remove(ids: some Sequence<Item.ID>) {
        _submit(.remove(Array(ids)))
    }

    /// Removes the rows with the ids of these items (their content is not compared).
    ///
    /// Returns at once; the batch is computed on the diff queue.
    /// - Parameter items: items whose ids name the rows to remove.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n*) on the diff queue, *k* = items passed.
    @inlinable public func remove(_ items: some Sequence<Item>) {
        _submit(.remove(items.map { $0.id }))
    }

    /// Removes every row.
    ///
    /// - Complexity: O(*n*) on the diff queue (every row is a deletion).
    @inlinable public func removeAll() {
        _submit(.removeAll)
    }

    /// Replaces the rows with `items`: removes every id not among them, then adds them.
    ///
    /// This is the path for a refresh from a server: rows that are unchanged stay,
    /// changed ones reload or move, and the renderer gets one batch.
    /// - Parameter items: the new rows, in any order; a repeated id means the last one wins.
    /// - Complexity: O(*k*) on the caller; O(*n* + *k* log *n*) on the diff queue,
    ///   *k* = items passed.
    @inlinable public func replaceAll(with items: some Sequence<Item>) {
        _submit(.replaceAll(Array(items)))
    }

    /// Re-sorts the rows stably under a new order, which also orders later additions.
    ///
    /// The ``SectionedListDataSource/rows`` of a sectioned list stay grouped by section:
    /// the new order applies within each section.
    ///
    /// - Parameter areInIncreasingOrder: the new row order.
    /// - Complexity: O(*n* log *n*) on the diff queue; the batch moves the fewest rows.
    @inlinable public func sort(by areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool) {
        _submit(.sort(areInIncreasingOrder))
    }

    /// Changes the row with `id` as every earlier call left it, then adds the result.
    ///
    /// `change` runs on the diff queue, on the item as every call submitted before this
    /// one left it (not as renderers last saw it), and the result is applied with
    /// ``add(_:)-(Item)``'s meaning: a row whose content did not change stays as it is, one
    /// that still fits between its neighbours is reloaded in place, otherwise it moves.
    /// So concurrent updates of one row compose: each sees the others' results and none
    /// is lost, which reading the row, changing a copy and adding it cannot promise.
    /// Nothing happens when no row has `id` by then.
    ///
    /// ```swift
    /// inbox.update(id: message.id) { $0.isRead = true }
    /// inbox.update(id: message.id) { $0.text = "edited" }   // keeps isRead
    /// ```
    ///
    /// - Parameters:
    ///   - id: the row's id.
    ///   - change: edits the item in place; it must keep the item's id (changing it is a
    ///     programmer error, caught by a precondition).
    /// - Complexity: O(1) on the caller; O(log *n*) on the diff queue, plus `change`.
    @inlinable public func update(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) {
        _submit(.update([id], change))
    }

    /// Makes several edits, decided on the latest state, and delivers them as one batch.
    ///
    /// `edits` runs on the diff queue with a ``ListEdits`` view of the rows as every
    /// earlier call left them. Its edits mean what the calls of the same names mean,
    /// applied in order, and reads inside it see the edits made so far. However many
    /// edits it makes, they reach renderers in one batch, at one version (with other
    /// calls coalesced into it, as for any call; a `perform` is never split). It costs
    /// what the single calls it replaces cost: consecutive `add` and `remove` calls go
    /// together through the same bulk paths.
    ///
    /// ```swift
    /// // "Move these, delete those" in one animation.
    /// list.perform { edits in
    ///     for id in pinned { edits.update(id: id) { $0.index = -1 } }
    ///     edits.remove(ids: deleted)
    /// }
    /// // A page, then the oldest rows dropped past a bound: never over it in between.
    /// list.perform { edits in
    ///     edits.add(page)
    ///     var dropped: [String] = []
    ///     for offset in 0 ..< max(0, edits.count - 1_000) { dropped.append(edits[offset: offset].id) }
    ///     edits.remove(ids: dropped)
    /// }
    /// ```
    ///
    /// - Parameter edits: the edits; it runs once, on the diff queue, so it must not
    ///   block or wait for this list.
    /// - Complexity: O(1) on the caller; on the diff queue, the edits' own costs.
    @inlinable public func perform(_ edits: @escaping @Sendable (inout ListEdits<Item>) -> Void) {
        _submit(.perform(edits))
    }

    /// Changes each row with one of `ids` as every earlier call left it, then adds the
    /// results as one call.
    ///
    /// The batch form of ``update(id:_:)``: `change` runs on the diff queue once for each
    /// listed id, in order (an id listed twice is changed twice, the second time from the
    /// first result); ids that no row has are skipped. The results are applied as one
    /// ``add(_:)-(Sequence<Item>)`` call, so they reach renderers in one batch.
    ///
    /// - Parameters:
    ///   - ids: the rows' ids.
    ///   - change: edits one item in place; it must keep the item's id.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n*) on the diff queue plus *k* calls
    ///   of `change`, *k* = ids passed.
    @inlinable public func update(ids: some Sequence<Item.ID>, _ change: @escaping @Sendable (inout Item) -> Void) {
        _submit(.update(Array(ids), change))
    }

    /// Removes the rows `shouldBeRemoved` selects, as every earlier call left them.
    ///
    /// The predicate runs on the diff queue, over every row of the list as the calls
    /// submitted before this one left it.
    ///
    /// ```swift
    /// inbox.remove { $0.isArchived }
    /// ```
    ///
    /// - Parameter shouldBeRemoved: whether a row goes.
    /// - Complexity: O(1) on the caller; O(*n*) calls of the predicate and O(*k* log *n*)
    ///   for *k* removed rows on the diff queue.
    @inlinable public func remove(where shouldBeRemoved: @escaping @Sendable (Item) -> Bool) {
        _submit(.removeWhere(shouldBeRemoved))
    }

    @inlinable func _submit(_ command: _Command<Item>) {
        _scheduleDrain(if: _shared.withLock { $0.pipeline.submit(command, at: DispatchTime.now().uptimeNanoseconds) })
    }

    /// Schedules a drain on the diff queue when a submission asked for one.
    @inlinable func _scheduleDrain(if action: _MutationPipeline<Item>.SubmitAction) {
        if action == .scheduleDrain {
            _diffQueue.async { self._drainer(self) }
        }
    }
}

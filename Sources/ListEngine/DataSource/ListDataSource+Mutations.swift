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
    /// - Parameter areInIncreasingOrder: the new row order.
    /// - Complexity: O(*n* log *n*) on the diff queue; the batch moves the fewest rows.
    @inlinable public func sort(by areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool) {
        _submit(.sort(areInIncreasingOrder))
    }

    @inlinable func _submit(_ command: _Command<Item>) {
        _scheduleDrain(if: _shared.withLock { $0.pipeline.submit(command, at: DispatchTime.now().uptimeNanoseconds) })
    }

    /// Schedules a drain on the diff queue when a submission asked for one.
    @inlinable func _scheduleDrain(if action: _MutationPipeline<Item>.SubmitAction) {
        if action == .scheduleDrain {
            _diffQueue.async { self._drain() }
        }
    }
}

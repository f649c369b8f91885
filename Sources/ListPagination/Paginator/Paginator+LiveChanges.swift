extension Paginator {
    /// Applies live changes to the list through the window: adds or updates each item
    /// that sorts inside it, removes each loaded item whose new place is outside it, and
    /// ignores the rest.
    ///
    /// The window is the range of the list's order between the first and the last
    /// loaded row, open at an end that is reached (see ``Paginator``); nothing is inside
    /// it before the first page arrives. An item outside it is not lost: it arrives with
    /// the page that covers its place, if the list is scrolled there. So a list that
    /// shows only part of its source never shows a row the source would not show between
    /// its first and last row, and with ``maxLoadedRows`` a long live feed cannot grow
    /// it: changes that take the count past the bound drop pages at the end farther from
    /// the visible row, as a page would.
    ///
    /// Items are compared with their `<`, which must be the data source's order. For an
    /// id given more than once, the last item counts. A page that is loading meanwhile
    /// may have been read before the change: when it arrives, the change wins over the
    /// page's copy of the row (the same holds for ``remove(ids:)``).
    ///
    /// ```swift
    /// for await change in feed {
    ///     paginator.upsert([change.player])
    /// }
    /// ```
    /// - Parameter items: the new versions of the items, or new items.
    /// - Complexity: O(*k*) comparisons on the caller, *k* = items passed; the rows are
    ///   changed on the data source's diff queue, in at most two calls (`remove(ids:)`
    ///   for the items that leave, then `add(_:)`).
    public func upsert(_ items: some Sequence<Item>) {
        let changes = Self._lastVersions(of: items)
        let trims = maxLoadedRows != nil
        let added = _shared.withLock { shared -> Bool in
            // Under the lock, so the changes reach the data source in order with pages.
            let added = _applyThroughWindow(changes, shared.machine.window)
            // A page loading now may have been read before these changes.
            if shared.machine.isLoading { shared.liveChanges += changes }
            if trims && added { shared.windowWork += 1 }
            return added
        }
        guard added, trims else { return }
        _trimAfterLiveChanges()
    }

    /// Applies live changes of both kinds in one batch: `upsert(_:)`'s meaning for
    /// `items`, `remove(ids:)`'s for `ids`.
    ///
    /// For a feed that learns several changes at once, for instance rows read back from
    /// a database after a burst of notifications: those found are `items`, the ids not
    /// found are `ids`, and a renderer gets one batch for the burst (two calls could
    /// reach it as two). An id given in both is removed; for an id given more than once
    /// in `items`, the last item counts.
    ///
    /// ```swift
    /// let found = try await rows(withIDs: changed)
    /// paginator.apply(upserting: found, removing: changed.subtracting(found.map(\.id)))
    /// ```
    /// - Parameters:
    ///   - items: the new versions of the items, or new items.
    ///   - ids: the ids of rows that are gone.
    /// - Complexity: O(*k*) comparisons on the caller, *k* = items and ids passed; the
    ///   rows are changed on the data source's diff queue, in one `perform`.
    public func apply(upserting items: some Sequence<Item>, removing ids: some Sequence<Item.ID>) {
        let removed = Set(ids)
        let changes = Self._lastVersions(of: items, except: removed) + removed.map { ($0, nil) }
        guard !changes.isEmpty else { return }
        let trims = maxLoadedRows != nil
        let added = _shared.withLock { shared -> Bool in
            // Under the lock, so the changes reach the data source in order with pages.
            let (inside, outside) = Self._split(changes, through: shared.machine.window)
            dataSource.perform { edits in
                if !outside.isEmpty { edits.remove(ids: outside) }
                if !inside.isEmpty { edits.add(inside) }
            }
            // A page loading now may have been read before these changes.
            if shared.machine.isLoading { shared.liveChanges += changes }
            if trims && !inside.isEmpty { shared.windowWork += 1 }
            return !inside.isEmpty
        }
        guard added, trims else { return }
        _trimAfterLiveChanges()
    }

    /// The last version of each id among `items`, in the order of those last versions,
    /// leaving out the ids in `excluded`.
    static func _lastVersions(of items: some Sequence<Item>, except excluded: Set<Item.ID> = []) -> [(id: Item.ID, item: Item?)] {
        var latest: [Item.ID: Int] = [:]
        let items = Array(items)
        for (index, item) in items.enumerated() where excluded.isEmpty || !excluded.contains(item.id) { latest[item.id] = index }
        return items.enumerated().compactMap { index, item in
            latest[item.id] == index ? (item.id, item) : nil
        }
    }

    /// Drops the pages that live changes pushed past ``maxLoadedRows``, once their
    /// batch is applied (the caller counted the work in `windowWork`).
    private func _trimAfterLiveChanges() {
        Task { [weak self] in
            guard let self else { return }
            _ = await self._trim()
            self._shared.withLock { $0.windowWork -= 1 }
        }
    }

    /// Removes the loaded rows with these ids; unknown ids are ignored.
    ///
    /// A live deletion: the row leaves the list, and the window keeps its range, so a
    /// page loaded later does not bring the row back unless the source still has it.
    ///
    /// ```swift
    /// paginator.remove(ids: [departed.id])
    /// ```
    /// - Parameter ids: the ids of the rows to remove.
    /// - Complexity: O(*k*) on the caller, *k* = ids passed; the rows are removed on the
    ///   data source's diff queue, in one call.
    public func remove(ids: some Sequence<Item.ID>) {
        let ids = Array(ids)
        guard !ids.isEmpty else { return }
        // Under the lock, so the removal reaches the data source in order with pages.
        _shared.withLock { shared in
            dataSource.remove(ids: ids)
            // A page loading now may have been read before the removal.
            if shared.machine.isLoading { shared.liveChanges += ids.map { ($0, nil) } }
        }
    }

    /// Applies live changes through `window`: adds each item it admits, removes the rest
    /// (an item outside it, or `nil` for a removal) by id. Called under the lock, so the
    /// changes reach the data source in order with pages.
    /// - Returns: whether any item was added.
    func _applyThroughWindow(_ changes: some Collection<(id: Item.ID, item: Item?)>, _ window: _Machine.Window) -> Bool {
        let (inside, outside) = Self._split(changes, through: window)
        if !outside.isEmpty { dataSource.remove(ids: outside) }
        if !inside.isEmpty { dataSource.add(inside) }
        return !inside.isEmpty
    }

    /// The items `window` admits, and the ids of the rest (items outside it, and `nil`
    /// items: removals).
    static func _split(_ changes: some Collection<(id: Item.ID, item: Item?)>, through window: _Machine.Window) -> (inside: [Item], outside: [Item.ID]) {
        var inside: [Item] = [], outside: [Item.ID] = []
        let fences = _ItemFences<Item>(window)
        for (id, item) in changes {
            if let item, fences.admits(item) { inside.append(item) } else { outside.append(id) }
        }
        return (inside, outside)
    }

    /// Whether nothing is loading, no load task is still running (a cancelled one may
    /// still call its loader), and no page's consequences and no trim of the window are
    /// still being worked out (tests wait for this before they check the window).
    var _isQuiet: Bool {
        _shared.withLock { !$0.machine.isLoading && $0.runningLoads == 0 && $0.windowWork == 0 }
    }

    /// How often pages were dropped at the top and at the bottom of the window.
    var _trimCounts: (top: Int, bottom: Int) {
        _shared.withLock { ($0.trims[0], $0.trims[1]) }
    }
}

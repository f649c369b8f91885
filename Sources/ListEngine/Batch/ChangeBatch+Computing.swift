extension ChangeBatch {
    /// Computes the batch from `old` to `new`, where only `touched` rows changed.
    ///
    /// For a sectioned list, `isSectionChanged` tells which surviving rows changed
    /// section: they always move, and weigh nothing in the subsequence of rows that
    /// stay, so the moves are the fewest in index-path terms (invariant S3).
    ///
    /// - Complexity: for `.ids`, O(*k* log *n*) comparisons for *k* touched ids and *n*
    ///   rows — independent of the rest of the list. For `.all`, and for ids of which
    ///   one is not equal to itself, O(*n* log *n*).
    @inlinable static func _compute(
        from old: consuming ListSnapshot<Item>, to new: consuming ListSnapshot<Item>, touched: _TouchedRows<Item.ID>,
        isSectionChanged: ((Item, Item) -> Bool)? = nil
    ) -> Self {
        // From or to an empty list, every row is an insertion or a deletion.
        if old.isEmpty || new.isEmpty {
            let deletions = Array(old.indices), insertions = Array(new.indices)
            return ChangeBatch(old: consume old, new: consume new, deletions: deletions, insertions: insertions, moves: [], reloads: [])
        }
        switch touched {
        case .all:
            return _computeFull(from: consume old, to: consume new, movable: nil, isSectionChanged: isSectionChanged)
        case .ids(let ids) where _EditStrategy.walksBothSnapshots(touched: ids.count, oldCount: old.count, newCount: new.count) || ids.contains(where: { $0 != $0 }):
            // Most of the list is touched: walking both snapshots costs less than
            // finding each touched row. An id that is not equal to itself (a `Double`
            // NaN, say) can never be found by id: its rows are found by the walk too.
            return _computeFull(from: consume old, to: consume new, movable: ids, isSectionChanged: isSectionChanged)
        case .ids(let ids):
            return _computeIncremental(from: consume old, to: consume new, touched: ids, isSectionChanged: isSectionChanged)
        case .edited(let edited):
            return _compute(from: consume old, to: consume new, edited: edited, isSectionChanged: isSectionChanged)
        }
    }

    /// Computes the batch by finding each touched row in both snapshots.
    ///
    /// - Complexity: O(*k* log *n*) comparisons for *k* touched ids and *n* rows.
    @inlinable static func _computeIncremental(
        from old: consuming ListSnapshot<Item>, to new: consuming ListSnapshot<Item>, touched: Set<Item.ID>,
        isSectionChanged: ((Item, Item) -> Bool)? = nil
    ) -> Self {
        var edited = _EditedRows(owners: touched.count)
        for (owner, id) in touched.enumerated() {
            let oldItem = old._storage[id: id], newItem = new._storage[id: id]
            if let oldItem { edited.oldOffsets[owner] = old._storage.position(ofStored: oldItem) }
            if let newItem { edited.newOffsets[owner] = new._storage.position(ofStored: newItem) }
            if let oldItem, let newItem, !oldItem.isContentEqual(to: newItem) { edited.isChanged[owner] = true }
        }
        edited.oldOrder = edited.oldOffsets.indices.filter { edited.oldOffsets[$0] >= 0 }.sorted { edited.oldOffsets[$0] < edited.oldOffsets[$1] }
        edited.newOrder = edited.newOffsets.indices.filter { edited.newOffsets[$0] >= 0 }.sorted { edited.newOffsets[$0] < edited.newOffsets[$1] }
        return _compute(from: consume old, to: consume new, edited: edited, isSectionChanged: isSectionChanged)
    }

    /// Computes the batch from where each touched row was and is.
    ///
    /// A touched survivor may stay put only if the number of untouched rows before it is
    /// the same in both snapshots; among those, a longest increasing run stays, and every
    /// other touched survivor moves. A survivor that changed section
    /// (`isSectionChanged`) always moves.
    ///
    /// - Complexity: O(*k* log *k*) for *k* touched rows, independent of the list's length;
    ///   O(*k* log *n*) more with `isSectionChanged`, to read the rows it compares.
    @inlinable static func _compute(
        from old: consuming ListSnapshot<Item>, to new: consuming ListSnapshot<Item>, edited: _EditedRows,
        isSectionChanged: ((Item, Item) -> Bool)? = nil
    ) -> Self {
        let owners = edited.oldOffsets.count
        if owners == 1 { return _compute(from: consume old, to: consume new, oneRow: edited, isSectionChanged: isSectionChanged) }
        // How many touched rows come before each one in the new snapshot.
        var newRank = [Int](repeating: 0, count: owners)
        for (rank, owner) in edited.newOrder.enumerated() { newRank[owner] = rank }
        var deletions: [Int] = []
        var candidates: [Int] = [], candidateOffsets: [Int] = []  // in old order
        var isMoved = [Bool](repeating: false, count: owners)
        for (rank, owner) in edited.oldOrder.enumerated() {
            let oldOffset = edited.oldOffsets[owner], newOffset = edited.newOffsets[owner]
            if newOffset < 0 {
                deletions.append(oldOffset)
            } else if oldOffset - rank == newOffset - newRank[owner], !(isSectionChanged?(old[oldOffset], new[newOffset]) ?? false) {
                candidates.append(owner)
                candidateOffsets.append(newOffset)
            } else {
                isMoved[owner] = true
            }
        }
        for (owner, isKept) in zip(candidates, _longestIncreasingSubsequenceMask(candidateOffsets)) where !isKept {
            isMoved[owner] = true
        }
        var insertions: [Int] = [], reloads: [Int] = [], moves: [ListMove] = []
        for owner in edited.newOrder {
            let oldOffset = edited.oldOffsets[owner], newOffset = edited.newOffsets[owner]
            if oldOffset < 0 {
                insertions.append(newOffset)
                continue
            }
            if isMoved[owner] { moves.append(ListMove(from: oldOffset, to: newOffset)) }
            if edited.isChanged[owner] { reloads.append(newOffset) }
        }
        return ChangeBatch(old: consume old, new: consume new, deletions: deletions, insertions: insertions, moves: moves, reloads: reloads)
    }

    /// The batch for one touched row: what the general computation gives for one owner
    /// (no untouched row can be counted differently around a single row, so it stays
    /// exactly when its offset and section are the same), without its working arrays.
    ///
    /// - Complexity: O(1); O(log *n*) more with `isSectionChanged`, to read the row.
    @inlinable static func _compute(
        from old: consuming ListSnapshot<Item>, to new: consuming ListSnapshot<Item>, oneRow edited: _EditedRows,
        isSectionChanged: ((Item, Item) -> Bool)?
    ) -> Self {
        let oldOffset = edited.oldOffsets[0], newOffset = edited.newOffsets[0]
        switch (oldOffset >= 0, newOffset >= 0) {
        case (false, false):
            return ChangeBatch(old: consume old, new: consume new, deletions: [], insertions: [], moves: [], reloads: [])
        case (false, true):
            return ChangeBatch(old: consume old, new: consume new, deletions: [], insertions: _SingleOffsets.array(newOffset), moves: [], reloads: [])
        case (true, false):
            return ChangeBatch(old: consume old, new: consume new, deletions: _SingleOffsets.array(oldOffset), insertions: [], moves: [], reloads: [])
        case (true, true):
            let isMoved = oldOffset != newOffset || (isSectionChanged?(old[oldOffset], new[newOffset]) ?? false)
            return ChangeBatch(
                old: consume old, new: consume new, deletions: [], insertions: [],
                moves: isMoved ? [ListMove(from: oldOffset, to: newOffset)] : [],
                reloads: edited.isChanged[0] ? _SingleOffsets.array(newOffset) : [])
        }
    }

    /// Compares two whole snapshots.
    ///
    /// Rows are first paired by one merge walk of the two snapshots in row order: a
    /// refresh or re-sort usually leaves most rows in the same relative place, and a row
    /// found in both at the same point of the walk needs no hashing. Only the rows the
    /// walk leaves unpaired are matched by id through a dictionary. The rows that stay
    /// are a longest increasing subsequence of old offsets in new order.
    ///
    /// The walk reads the snapshots' trees in place; only the unpaired rows are kept
    /// aside, with their offsets.
    ///
    /// When `movable` is given, only those rows may move: a touched survivor can stay
    /// only where the number of untouched survivors before it is the same in both
    /// snapshots, as in the incremental path. A survivor that changed section
    /// (`isSectionChanged`) always moves.
    ///
    /// - Complexity: O(*n* + *m*) comparisons, O(*u*) hashes for the *u* rows the walk
    ///   leaves unpaired (O(*n*) more with `movable`), and O(*n* log *n*) for the
    ///   subsequence.
    @inlinable static func _computeFull(
        from old: consuming ListSnapshot<Item>, to new: consuming ListSnapshot<Item>, movable: Set<Item.ID>?,
        isSectionChanged: ((Item, Item) -> Bool)? = nil
    ) -> Self {
        let oldCount = old.count, newCount = new.count
        let less = new._storage.areInIncreasingOrder
        var sourceOfNew = [Int](repeating: -1, count: newCount)
        var survivesOld = [Bool](repeating: false, count: oldCount)
        var unpairedOld: [(offset: Int, item: Item)] = [], unpairedNew: [(offset: Int, item: Item)] = []
        // Room for every row: untouched memory costs nothing, and a re-sort leaves
        // nearly every row unpaired, which growing by doubling would copy twice over.
        unpairedOld.reserveCapacity(oldCount)
        unpairedNew.reserveCapacity(newCount)
        var isReloaded = [Bool](repeating: false, count: newCount)
        // With `movable`: per new offset, whether the row survives and was not touched.
        var isUntouchedAt = [Bool](repeating: false, count: movable == nil ? 0 : newCount)
        // For a sectioned list: per new offset, whether the row survives in another section.
        var isSectionChangedAt = [Bool](repeating: false, count: isSectionChanged == nil ? 0 : newCount)
        func pair(_ oldOffset: Int, _ oldRow: Item, with newOffset: Int, _ newRow: Item) {
            sourceOfNew[newOffset] = oldOffset
            survivesOld[oldOffset] = true
            isReloaded[newOffset] = !oldRow.isContentEqual(to: newRow)
            if let movable { isUntouchedAt[newOffset] = !movable.contains(newRow.id) }
            if let isSectionChanged { isSectionChangedAt[newOffset] = isSectionChanged(oldRow, newRow) }
        }
        func mustMove(_ survivor: (old: Int, new: Int)) -> Bool {
            isSectionChanged != nil && isSectionChangedAt[survivor.new]
        }
        // The same id on both sides pairs at once; only different ids need the order.
        // Each row is read from its leaf into a local once per step of the walk.
        var oldRows = old._storage.rows.makeIterator(), newRows = new._storage.rows.makeIterator()
        var i = 0, j = 0
        if !oldRows._isAtEnd && !newRows._isAtEnd {
            var oldRow = oldRows.leaf[oldRows.index], newRow = newRows.leaf[newRows.index]
            while true {
                var advanceOld = true, advanceNew = true
                if oldRow.id == newRow.id {
                    pair(i, oldRow, with: j, newRow)
                } else if less(oldRow, newRow) {
                    unpairedOld.append((i, oldRow))
                    advanceNew = false
                } else if less(newRow, oldRow) {
                    unpairedNew.append((j, newRow))
                    advanceOld = false
                } else {
                    unpairedOld.append((i, oldRow))
                    unpairedNew.append((j, newRow))
                }
                if advanceOld {
                    i += 1
                    oldRows._skip()
                }
                if advanceNew {
                    j += 1
                    newRows._skip()
                }
                guard !oldRows._isAtEnd && !newRows._isAtEnd else { break }
                if advanceOld { oldRow = oldRows.leaf[oldRows.index] }
                if advanceNew { newRow = newRows.leaf[newRows.index] }
            }
        }
        while !oldRows._isAtEnd {
            unpairedOld.append((i, oldRows.leaf[oldRows.index]))
            i += 1
            oldRows._skip()
        }
        while !newRows._isAtEnd {
            unpairedNew.append((j, newRows.leaf[newRows.index]))
            j += 1
            newRows._skip()
        }
        if !unpairedOld.isEmpty && !unpairedNew.isEmpty {
            var oldPlaces = [Item.ID: Int](minimumCapacity: unpairedOld.count)
            for (place, row) in unpairedOld.enumerated() { oldPlaces[row.item.id] = place }
            for row in unpairedNew {
                if let place = oldPlaces[row.item.id] {
                    let source = unpairedOld[place]
                    pair(source.offset, source.item, with: row.offset, row.item)
                }
            }
        }

        var insertions: [Int] = [], reloads: [Int] = []
        var survivors: [(old: Int, new: Int)] = []
        survivors.reserveCapacity(min(oldCount, newCount))
        for (offset, source) in sourceOfNew.enumerated() {
            if source < 0 {
                insertions.append(offset)
            } else {
                survivors.append((source, offset))
                if isReloaded[offset] { reloads.append(offset) }
            }
        }
        let deletions = survivesOld.indices.filter { !survivesOld[$0] }
        var moves: [ListMove] = []
        if movable != nil {
            // Untouched survivors keep their relative order; count them before each row.
            var untouchedBeforeOld = [Int](repeating: 0, count: oldCount + 1)
            var untouchedOldAt = [Bool](repeating: false, count: oldCount)
            for survivor in survivors where isUntouchedAt[survivor.new] {
                untouchedOldAt[survivor.old] = true
            }
            for offset in 0 ..< oldCount {
                untouchedBeforeOld[offset + 1] = untouchedBeforeOld[offset] + (untouchedOldAt[offset] ? 1 : 0)
            }
            // Survivors are in new order, so a running count gives the new side.
            var candidates: [(old: Int, new: Int)] = []
            var untouchedBeforeNew = 0
            for survivor in survivors {
                if isUntouchedAt[survivor.new] {
                    untouchedBeforeNew += 1
                } else if untouchedBeforeOld[survivor.old] == untouchedBeforeNew, !mustMove(survivor) {
                    candidates.append(survivor)
                } else {
                    moves.append(ListMove(from: survivor.old, to: survivor.new))
                }
            }
            candidates.sort { $0.old < $1.old }
            let kept = _longestIncreasingSubsequenceMask(candidates.map(\.new))
            for (candidate, isKept) in zip(candidates, kept) where !isKept {
                moves.append(ListMove(from: candidate.old, to: candidate.new))
            }
            moves.sort { $0.to < $1.to }
        } else if isSectionChanged != nil {
            // Rows that changed section always move; the others stay as a longest
            // increasing subsequence among themselves.
            let stayable = survivors.filter { !mustMove($0) }
            var isKeptAt = [Bool](repeating: false, count: newCount)
            for (survivor, isKept) in zip(stayable, _longestIncreasingSubsequenceMask(stayable.map(\.old))) where isKept {
                isKeptAt[survivor.new] = true
            }
            for survivor in survivors where !isKeptAt[survivor.new] {
                moves.append(ListMove(from: survivor.old, to: survivor.new))
            }
        } else {
            let kept = _longestIncreasingSubsequenceMask(survivors.map(\.old))
            for (survivor, isKept) in zip(survivors, kept) where !isKept {
                moves.append(ListMove(from: survivor.old, to: survivor.new))
            }
        }
        return ChangeBatch(old: consume old, new: consume new, deletions: deletions, insertions: insertions, moves: moves, reloads: reloads)
    }
}

extension ChangeBatch {
    /// Traps unless the batch satisfies invariants 1 and 2 (numbered in the Semantics
    /// article, `ListEngine.docc/Semantics.md`) and `new` holds each id once.
    /// Costs O(*n*); meant for tests and `LIST_INTERNAL_CHECKS` builds.
    @inlinable func _checkInvariants() {
        let oldRows = Array(old), newRows = Array(new)
        old._storage._checkInvariants()
        new._storage._checkInvariants()
        precondition(Self._isSameRows(_applyingSets(to: oldRows), newRows), "batch sets do not turn old into new: \(self)")
        precondition(Self._isSameRows(_applyingSteps(to: oldRows), newRows), "batch steps do not turn old into new: \(self)")

        var oldOffsets: [Item.ID: Int] = [:], newOffsets: [Item.ID: Int] = [:]
        for (offset, item) in oldRows.enumerated() { oldOffsets[item.id] = offset }
        for (offset, item) in newRows.enumerated() { newOffsets[item.id] = offset }
        precondition(newOffsets.count == newRows.count, "new holds an id twice")
        let expectedDeletions = oldRows.indices.filter { newOffsets[oldRows[$0].id] == nil }
        let expectedInsertions = newRows.indices.filter { oldOffsets[newRows[$0].id] == nil }
        let expectedReloads = newRows.indices.filter { offset in
            oldOffsets[newRows[offset].id].map { !oldRows[$0].isContentEqual(to: newRows[offset]) } ?? false
        }
        precondition(deletions == expectedDeletions, "deletions \(deletions) ≠ \(expectedDeletions)")
        precondition(insertions == expectedInsertions, "insertions \(insertions) ≠ \(expectedInsertions)")
        precondition(reloads == expectedReloads, "reloads \(reloads) ≠ \(expectedReloads)")
    }
}

extension ChangeBatch {
    /// Traps unless only touched rows move and no fewer moves would do (invariant 3;
    /// S3 for a sectioned list, whose rows that changed section must all move).
    /// Costs O(*n* log *n*); meant for tests and `LIST_INTERNAL_CHECKS` builds.
    ///
    /// - Parameters:
    ///   - isTouched: whether the row at an offset of `old` was named by the batch's
    ///     calls, and so may move.
    ///   - isSectionChanged: for a sectioned list, whether a row that was the first item
    ///     and is the second changed section.
    @inlinable func _checkMovesAreMinimal(isTouched: (Int) -> Bool, isSectionChanged: ((Item, Item) -> Bool)? = nil) {
        for move in moves {
            precondition(isTouched(move.from), "row \(move.from) moved but was not named by the calls: \(self)")
        }
        if let isSectionChanged {
            let moved = Set(moves.map(\.to))
            for (offset, row) in new.enumerated() {
                if let oldRow = old[id: row.id], isSectionChanged(oldRow, row) {
                    precondition(moved.contains(offset), "row \(offset) changed section but did not move: \(self)")
                }
            }
        }
        guard let minimum = _minimumMoveCount(isTouched: isTouched, isSectionChanged: isSectionChanged) else {
            preconditionFailure("rows that were not named by the calls changed their order: \(self)")
        }
        precondition(moves.count == minimum, "\(moves.count) moves where \(minimum) would do: \(self)")
    }

    /// The fewest moves that turn `old` into `new` when only touched rows may move, or
    /// `nil` when untouched rows changed their order (no moves of touched rows would do).
    ///
    /// Computed apart from how batches are computed: the rows in both snapshots stay
    /// put as a heaviest subsequence whose new offsets increase in old order, an
    /// untouched row weighing more than all touched rows together (so every untouched
    /// row stays); every touched row left out of it moves. Rows whose id is not equal
    /// to itself are never found in `new` and count as deleted and inserted. Rows that
    /// changed section (`isSectionChanged`) weigh nothing: they are left out and move.
    ///
    /// - Parameters:
    ///   - isTouched: whether the row at an offset of `old` may move.
    ///   - isSectionChanged: for a sectioned list, whether a row changed section.
    /// - Complexity: O(*n* log *n*) for *n* rows, plus O(*n*) hashes.
    @inlinable func _minimumMoveCount(isTouched: (Int) -> Bool, isSectionChanged: ((Item, Item) -> Bool)? = nil) -> Int? {
        var newOffsets: [Item.ID: Int] = [:]
        newOffsets.reserveCapacity(new.count)
        for (offset, row) in new.enumerated() { newOffsets[row.id] = offset }
        var survivors: [(newOffset: Int, isTouched: Bool)] = []
        var sectionChangers = 0
        for (offset, row) in old.enumerated() {
            guard let newOffset = newOffsets[row.id] else { continue }
            if let isSectionChanged, isSectionChanged(row, new[newOffset]) {
                sectionChangers += 1
                continue
            }
            survivors.append((newOffset, isTouched(offset)))
        }
        let heavy = survivors.count + 1
        // best[i] (a Fenwick tree over new offsets, for maxima): the heaviest increasing
        // subsequence so far that ends at a new offset below i.
        var best = [Int](repeating: 0, count: new.count + 1)
        func heaviest(below offset: Int) -> Int {
            var index = offset, result = 0
            while index > 0 {
                result = Swift.max(result, best[index])
                index -= index & -index
            }
            return result
        }
        var lastUntouched = -1, untouched = 0
        for survivor in survivors {
            if !survivor.isTouched {
                guard survivor.newOffset > lastUntouched else { return nil }
                lastUntouched = survivor.newOffset
                untouched += 1
            }
            let weight = heaviest(below: survivor.newOffset) + (survivor.isTouched ? 1 : heavy)
            var index = survivor.newOffset + 1
            while index < best.count {
                best[index] = Swift.max(best[index], weight)
                index += index & -index
            }
        }
        let keptTouched = heaviest(below: new.count) - untouched * heavy
        return survivors.count - untouched - keptTouched + sectionChangers
    }
}

extension ChangeBatch {
    /// Whether two arrays hold the same rows: the same ids in the same order, each with
    /// the same content (``DataSourceComparable/isContentEqual(to:)``, which may differ
    /// from `==`).
    @inlinable static func _isSameRows(_ first: [Item], _ second: [Item]) -> Bool {
        first.count == second.count
            && zip(first, second).allSatisfy { $0.id == $1.id && $0.isContentEqual(to: $1) }
    }
}

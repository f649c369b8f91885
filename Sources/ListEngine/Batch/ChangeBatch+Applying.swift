extension ChangeBatch {
    /// Turns an array holding the rows of `old` into the rows of `new`: the change the
    /// batch's ``steps`` make, made in one pass.
    ///
    /// ```swift
    /// var rows = Array(batch.old)
    /// batch.apply(to: &rows)   // rows == Array(batch.new)
    /// ```
    /// The rows that stay in place keep their elements (only ``reloads`` are replaced),
    /// so an array of the list's rows edited elsewhere keeps what it holds for them.
    ///
    /// - Parameter rows: the rows of `old` (as many); on return, the rows of `new`.
    /// - Complexity: O(*n* + *k* log *k*) for *n* rows and *k* changes: a pass over the
    ///   rows, and the *k* insertions and moves sorted by their new offsets.
    @inlinable public func apply(to rows: inout [Item]) {
        precondition(rows.count == old.count, "apply(to:) needs the \(old.count) rows of the batch's old snapshot, got \(rows.count)")
        rows = _applyingSets(to: rows)
    }

    /// Applies the ``steps`` one at a time, as a client replaying them would.
    ///
    /// - Complexity: O(*c* · *n*) array edits for *c* steps.
    @inlinable func _applyingSteps(to oldRows: [Item]) -> [Item] {
        var rows = oldRows
        for step in steps { Self.apply(step, to: &rows) }
        return rows
    }

    /// Applies one step to an array, with a precondition on its offsets.
    ///
    /// - Parameters:
    ///   - step: the step; its offsets refer to `rows` as they stand.
    ///   - rows: the rows before the step; on return, the rows after it.
    /// - Complexity: O(*n*) for an array of *n* rows; O(1) for a reload.
    @inlinable public static func apply(_ step: ListStep<Item>, to rows: inout [Item]) {
        switch step {
        case .remove(let offset):
            precondition(rows.indices.contains(offset), "remove offset \(offset) out of range")
            rows.remove(at: offset)
        case .insert(let item, let offset):
            precondition(offset >= 0 && offset <= rows.count, "insert offset \(offset) out of range")
            rows.insert(item, at: offset)
        case .move(let from, let to):
            precondition(rows.indices.contains(from), "move source \(from) out of range")
            let item = rows.remove(at: from)
            precondition(to >= 0 && to <= rows.count, "move destination \(to) out of range")
            rows.insert(item, at: to)
        case .reload(let item, let offset):
            precondition(rows.indices.contains(offset), "reload offset \(offset) out of range")
            rows[offset] = item
        }
    }

    /// Applies the set form in one pass: the rows of `new` are, in order, the insertions
    /// (from `new`) and the moved rows (from `oldRows`) at their new offsets, and between
    /// them the rows of `oldRows` that are neither deleted nor moved, in their order;
    /// then the reloads take their items from `new`.
    ///
    /// - Complexity: O(*n* + *k* log *k*) for *n* rows and *k* changes.
    @inlinable func _applyingSets(to oldRows: [Item]) -> [Item] {
        var leaves = [Bool](repeating: false, count: oldRows.count)
        for offset in deletions { leaves[offset] = true }
        for move in moves { leaves[move.from] = true }
        // What goes to a given new offset, by offset; the rest comes from `oldRows`.
        var placed: [(offset: Int, item: Item)] = []
        placed.reserveCapacity(insertions.count + moves.count)
        for move in moves { placed.append((move.to, oldRows[move.from])) }
        // One walk of `new` for the inserted and reloaded items (both ascending offsets).
        var reloaded: [(offset: Int, item: Item)] = []
        reloaded.reserveCapacity(reloads.count)
        if !insertions.isEmpty || !reloads.isEmpty {
            var iterator = new.makeIterator()
            var position = 0, nextInsertion = 0, nextReload = 0
            while nextInsertion < insertions.count || nextReload < reloads.count {
                let isInsertion = nextReload == reloads.count
                    || (nextInsertion < insertions.count && insertions[nextInsertion] < reloads[nextReload])
                let offset = isInsertion ? insertions[nextInsertion] : reloads[nextReload]
                while position < offset { _ = iterator.next(); position += 1 }
                guard let item = iterator.next() else { preconditionFailure("offset \(offset) out of range of new") }
                position += 1
                if isInsertion {
                    placed.append((offset, item))
                    nextInsertion += 1
                } else {
                    reloaded.append((offset, item))
                    nextReload += 1
                }
            }
        }
        placed.sort { $0.offset < $1.offset }
        var rows: [Item] = []
        rows.reserveCapacity(new.count)
        var next = 0, stayer = 0
        for offset in 0 ..< new.count {
            if next < placed.count, placed[next].offset == offset {
                rows.append(placed[next].item)
                next += 1
                continue
            }
            while stayer < oldRows.count, leaves[stayer] { stayer += 1 }
            precondition(stayer < oldRows.count, "the batch's sets leave too few rows for new offset \(offset)")
            rows.append(oldRows[stayer])
            stayer += 1
        }
        for reload in reloaded { rows[reload.offset] = reload.item }
        return rows
    }
}

extension ChangeBatch {
    /// Applies the batch's ``steps`` to an array holding the rows of `old`.
    ///
    /// ```swift
    /// var rows = Array(batch.old)
    /// batch.apply(to: &rows)   // rows == Array(batch.new)
    /// ```
    /// - Parameter rows: the rows of `old`; on return, the rows of `new`.
    /// - Complexity: O(*c* · *n*) array edits for *c* steps.
    @inlinable public func apply(to rows: inout [Item]) {
        for step in steps { Self.apply(step, to: &rows) }
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

    /// Applies the set form: remove deletions and move sources from the highest offset
    /// down, insert insertions and move destinations from the lowest offset up, reload.
    @inlinable func _applyingSets(to oldRows: [Item]) -> [Item] {
        var rows = oldRows
        var removals: [(offset: Int, isMove: Bool)] = deletions.map { ($0, false) }
        removals += moves.map { ($0.from, true) }
        removals.sort { $0.offset > $1.offset }
        for removal in removals { rows.remove(at: removal.offset) }
        var additions: [(offset: Int, item: Item)] = insertions.map { ($0, new[$0]) }
        additions += moves.map { ($0.to, oldRows[$0.from]) }
        additions.sort { $0.offset < $1.offset }
        for addition in additions { rows.insert(addition.item, at: addition.offset) }
        for offset in reloads { rows[offset] = new[offset] }
        return rows
    }
}

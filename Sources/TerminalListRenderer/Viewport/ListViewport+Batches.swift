extension ListViewport {
    /// Follows a batch: anchors the visible rows and moves the selection with its item.
    ///
    /// A batch from the empty version 0 (the attach batch) starts over at the top,
    /// keeping the selected id if the new rows hold it. Any other batch must start from
    /// the version this viewport shows.
    ///
    /// - Parameter batch: the next batch of the list.
    /// - Complexity: O(*k* log *k*) for *k* changed rows, plus O(*h*) binary searches
    ///   for a height of *h*; independent of the length of the list.
    public mutating func apply(_ batch: ChangeBatch<Item>) {
        _apply(batch, sections: nil)
    }

    /// Follows a batch of the flat rows, then shows `sections` (the sections of
    /// `batch.new`, or `nil` for a flat list).
    mutating func _apply(_ batch: ChangeBatch<Item>, sections: (any _SectionBounds)?) {
        defer {
            _normalize()
            _checkInvariants()
        }
        guard let current = snapshot, !(batch.old.version == 0 && batch.old.isEmpty) else {
            let previousID = selectedID
            snapshot = batch.new
            _sections = sections
            top = 0
            selection = previousID.flatMap { batch.new.index(of: $0) }
            return
        }
        precondition(
            batch.old.version == current.version,
            "batch from version \(batch.old.version) applied to a viewport at version \(current.version)"
        )
        let positions = _BatchPositions(batch)
        let shown = visibleRows
        // At the very top the rows are not anchored (unless rows not loaded come before
        // them), but a selected row that was on screen and stays where it was among the
        // others is kept on screen.
        let anchors = top > 0 || hasRowsAbove
        let keepsSelectionInView = !anchors && selection.map { shown.contains($0) && !positions.isRemoved($0) } ?? false
        if let old = selection {
            selection = positions.newOffset(ofOld: old) ?? positions.replacement(forRemoved: old)
        }
        if anchors {
            let visible = top..<max(top, min(shown.upperBound, batch.old.count))
            let anchor = _isAtBottom
                ? visible.last { !positions.isRemoved($0) }
                : visible.first { !positions.isRemoved($0) }
            if let anchor {
                top = positions.newOffset(ofKeptRank: positions.keptRank(ofOld: anchor)) - (anchor - top)
            } else {
                top = positions.newOffset(ofKeptRank: positions.keptRank(ofOld: top))
            }
        }
        snapshot = batch.new
        _sections = sections
        if keepsSelectionInView { _revealSelection() }
    }

    /// Restores the invariants: a selection exists exactly when there are items, and
    /// `top` is in range.
    mutating func _normalize() {
        if count == 0 {
            selection = nil
        } else if let current = selection {
            selection = min(max(0, current), count - 1)
        } else {
            selection = min(top, count - 1)
        }
        _clampTop()
    }
}

/// Where old offsets end up in a batch's new snapshot, from the batch's offsets alone.
///
/// Rows that are neither deleted nor moved (*kept* rows) keep their relative order, so
/// the *k*-th kept row of `old` is the *k*-th kept row of `new`; the new offsets that
/// are not kept are exactly the insertions and move destinations.
struct _BatchPositions<Item: Hashable & DataSourceComparable> {
    /// Ascending old offsets that are deleted or moved.
    private let removed: [Int]
    /// Ascending old offsets that are deleted.
    private let deletions: [Int]
    /// Ascending new offsets that are inserted or moved to.
    private let added: [Int]
    private let moveDestinations: [Int: Int]
    private let newCount: Int

    init(_ batch: ChangeBatch<Item>) {
        deletions = batch.deletions
        removed = Self._merge(batch.deletions, batch.moves.map(\.from).sorted())
        added = Self._merge(batch.insertions, batch.moves.map(\.to).sorted())
        var destinations: [Int: Int] = [:]
        for move in batch.moves { destinations[move.from] = move.to }
        moveDestinations = destinations
        newCount = batch.new.count
    }

    /// Whether the row at old offset `offset` was deleted or moved.
    func isRemoved(_ offset: Int) -> Bool {
        let index = removed._partitionIndex { $0 >= offset }
        return index < removed.count && removed[index] == offset
    }

    /// How many kept rows precede old offset `offset`.
    func keptRank(ofOld offset: Int) -> Int {
        offset - removed._partitionIndex { $0 >= offset }
    }

    /// The new offset of the kept row of rank `rank`; `newCount` when `rank` is the
    /// number of kept rows.
    func newOffset(ofKeptRank rank: Int) -> Int {
        // added[c] - c never decreases, so the number of added offsets before the slot
        // is the first c with added[c] - c > rank.
        let skipped = added.indices._partitionIndex { added[$0] - $0 > rank }
        return rank + skipped
    }

    /// The new offset of the row at old offset `offset`, or `nil` if it was deleted.
    func newOffset(ofOld offset: Int) -> Int? {
        if let destination = moveDestinations[offset] { return destination }
        let index = deletions._partitionIndex { $0 >= offset }
        if index < deletions.count && deletions[index] == offset { return nil }
        return newOffset(ofKeptRank: keptRank(ofOld: offset))
    }

    /// The row that takes the place of the deleted row at old offset `offset`: the next
    /// kept row, or the last row; `nil` if the new list is empty.
    func replacement(forRemoved offset: Int) -> Int? {
        guard newCount > 0 else { return nil }
        return min(newOffset(ofKeptRank: keptRank(ofOld: offset)), newCount - 1)
    }

    private static func _merge(_ a: [Int], _ b: [Int]) -> [Int] {
        guard !b.isEmpty else { return a }
        guard !a.isEmpty else { return b }
        var result: [Int] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] <= b[j] {
                result.append(a[i]); i += 1
            } else {
                result.append(b[j]); j += 1
            }
        }
        result += a[i...]
        result += b[j...]
        return result
    }
}

extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `predicate`, for a predicate that is
    /// false and then true along the collection; `endIndex` if none.
    func _partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Which rows a batch's mutations named, and so which rows may move.
enum _TouchedRows<ID: Hashable & Sendable>: Sendable {
    /// Every row (after `sort(by:)`, `replaceAll(with:)` or `removeAll()`).
    case all
    /// The ids passed to `add` and `remove` calls.
    case ids(Set<ID>)
}

extension ChangeBatch {
    /// Computes the batch from `old` to `new`, where only `touched` rows changed.
    ///
    /// - Complexity: for `.ids`, O(*k* log *n*) comparisons for *k* touched ids and *n*
    ///   rows — independent of the rest of the list. For `.all`, O(*n* log *n*).
    static func _compute(from old: ListSnapshot<Item>, to new: ListSnapshot<Item>, touched: _TouchedRows<Item.ID>) -> Self {
        switch touched {
        case .all: return _computeFull(from: old, to: new)
        case .ids(let ids): return _computeIncremental(from: old, to: new, touched: ids)
        }
    }

    private static func _computeIncremental(from old: ListSnapshot<Item>, to new: ListSnapshot<Item>, touched: Set<Item.ID>) -> Self {
        var deletions: [Int] = [], insertions: [Int] = [], reloads: [Int] = []
        var survivors: [(old: Int, new: Int)] = []
        for id in touched {
            let oldItem = old._storage[id: id], newItem = new._storage[id: id]
            switch (oldItem, newItem) {
            case (let oldItem?, nil):
                deletions.append(old._storage.position(ofStored: oldItem))
            case (nil, let newItem?):
                insertions.append(new._storage.position(ofStored: newItem))
            case (let oldItem?, let newItem?):
                let target = new._storage.position(ofStored: newItem)
                survivors.append((old._storage.position(ofStored: oldItem), target))
                if oldItem != newItem { reloads.append(target) }
            case (nil, nil):
                break
            }
        }
        deletions.sort()
        insertions.sort()
        reloads.sort()

        // A touched survivor may stay put only if the number of untouched rows before it
        // is the same in both snapshots; among those, keep a longest increasing run.
        let touchedOld = (deletions + survivors.map(\.old)).sorted()
        let touchedNew = (insertions + survivors.map(\.new)).sorted()
        survivors.sort { $0.old < $1.old }
        var candidates: [Int] = []  // indices into survivors
        for (index, survivor) in survivors.enumerated() {
            let untouchedBeforeOld = survivor.old - touchedOld._countLess(than: survivor.old)
            let untouchedBeforeNew = survivor.new - touchedNew._countLess(than: survivor.new)
            if untouchedBeforeOld == untouchedBeforeNew { candidates.append(index) }
        }
        let kept = _longestIncreasingSubsequenceMask(candidates.map { survivors[$0].new })
        var stays = [Bool](repeating: false, count: survivors.count)
        for (candidate, isKept) in zip(candidates, kept) where isKept { stays[candidate] = true }
        var moves: [ListMove] = []
        for (index, survivor) in survivors.enumerated() where !stays[index] {
            moves.append(ListMove(from: survivor.old, to: survivor.new))
        }
        moves.sort { $0.to < $1.to }
        return ChangeBatch(old: old, new: new, deletions: deletions, insertions: insertions, moves: moves, reloads: reloads)
    }

    private static func _computeFull(from old: ListSnapshot<Item>, to new: ListSnapshot<Item>) -> Self {
        let oldRows = Array(old)
        var oldOffsets = [Item.ID: Int](minimumCapacity: oldRows.count)
        for (offset, item) in oldRows.enumerated() { oldOffsets[item.id] = offset }
        var survives = [Bool](repeating: false, count: oldRows.count)
        var insertions: [Int] = [], reloads: [Int] = []
        var survivors: [(old: Int, new: Int)] = []
        survivors.reserveCapacity(min(oldRows.count, new.count))
        for (offset, item) in new.enumerated() {
            if let source = oldOffsets[item.id] {
                survives[source] = true
                survivors.append((source, offset))
                if oldRows[source] != item { reloads.append(offset) }
            } else {
                insertions.append(offset)
            }
        }
        let deletions = survives.indices.filter { !survives[$0] }
        let kept = _longestIncreasingSubsequenceMask(survivors.map(\.old))
        var moves: [ListMove] = []
        for (survivor, isKept) in zip(survivors, kept) where !isKept {
            moves.append(ListMove(from: survivor.old, to: survivor.new))
        }
        return ChangeBatch(old: old, new: new, deletions: deletions, insertions: insertions, moves: moves, reloads: reloads)
    }
}

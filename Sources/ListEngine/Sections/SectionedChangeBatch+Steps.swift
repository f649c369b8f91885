extension SectionedChangeBatch {
    /// The batch as a sequential edit script.
    ///
    /// Each step refers to the list as it stands after the previous steps: first the item
    /// deletions (highest path first), then the new sections (empty, lowest first), then
    /// the moves, then the removal of the deleted sections (empty by then, highest
    /// first), then the item insertions (lowest path first) and the reloads. Applying the
    /// steps one by one to nested arrays holding `old` gives `new`. There is exactly one
    /// step per section deletion and insertion and per item deletion, insertion, move and
    /// reload.
    ///
    /// Moves are placed in the order of their destinations; each moved row is put right
    /// after the row that precedes it in its new section (or first in it), so earlier
    /// placements are never disturbed.
    ///
    /// - Complexity: O(*c* log *c* + *c* log *n* + *c* log *s*) for *c* changes, *n* rows
    ///   and *s* sections: it never walks the list or the sections.
    @inlinable public var steps: [SectionedListStep<Section, Item>] {
        var steps: [SectionedListStep<Section, Item>] = []
        steps.reserveCapacity(
            itemDeletions.count + sectionInsertions.count + itemMoves.count + sectionDeletions.count + itemInsertions.count + itemReloads.count
        )
        for path in itemDeletions.reversed() { steps.append(.remove(at: path)) }
        // While moves run, the list holds the old sections and the new ones.
        let addedKeys = sectionInsertions.map { new._keys[$0] }
        func currentSection(ofKeyBefore oldSectionsBelow: Int, _ key: Section) -> Int {
            oldSectionsBelow + addedKeys._countLess(than: key)
        }
        for key in addedKeys {
            let oldBelow = old._keys.partitioningIndex { !($0 < key) }
            steps.append(.insertSection(key, at: currentSection(ofKeyBefore: oldBelow, key)))
        }
        _appendMoveSteps(to: &steps) { key in
            currentSection(ofKeyBefore: old._keys.partitioningIndex { !($0 < key) }, key)
        }
        for offset in sectionDeletions.reversed() {
            let key = old._keys[offset]
            steps.append(.removeSection(at: currentSection(ofKeyBefore: offset, key)))
        }
        for path in itemInsertions { steps.append(.insert(new[path], at: path)) }
        for path in itemReloads { steps.append(.reload(new[path], at: path)) }
        return steps
    }

    /// Appends one `.move` step per move, for the list after the item deletions, with
    /// both the old and the new sections present.
    ///
    /// The flat method of ``ChangeBatch/steps``, within sections. After the deletions,
    /// the rows of each section are, in *source* order, the old rows minus deletions;
    /// after the moves, in *target* order, the new rows minus insertions. Rows that do not
    /// move keep their section. A moved row is placed right after the nearest unmoved row
    /// before it in its new section's target order (its *head*), behind the rows placed
    /// there before it, or first in the section when no unmoved row precedes it there.
    /// Fenwick trees over source positions count the rows not yet placed and the rows
    /// placed behind each head; restricting their sums to a section's range of source
    /// positions gives positions inside the section.
    ///
    /// - Parameter currentSection: a key's section offset while the moves run.
    @inlinable func _appendMoveSteps(to steps: inout [SectionedListStep<Section, Item>], currentSection: (Section) -> Int) {
        let flat = rows
        guard !flat.moves.isEmpty else { return }
        let count = flat.moves.count
        let sources = flat.moves.map { $0.from - flat.deletions._countLess(than: $0.from) }
        let targets = flat.moves.map { $0.to - flat.insertions._countLess(than: $0.to) }
        // Each move's place among its old section's rows after the deletions, and among
        // its new section's rows before the insertions.
        let nestedSources = itemMoves.map { $0.from.item - itemDeletions._countLess(than: $0.from) + itemDeletions._countLess(than: ListIndexPath(section: $0.from.section, item: 0)) }
        let nestedTargets = itemMoves.map { $0.to.item - itemInsertions._countLess(than: $0.to) + itemInsertions._countLess(than: ListIndexPath(section: $0.to.section, item: 0)) }
        let order = (0 ..< count).sorted { targets[$0] < targets[$1] }
        let sortedSources = sources.sorted()
        let sortedTargets = order.map { targets[$0] }
        let unmovedBeforeSource = sortedSources.indices.map { sortedSources[$0] - $0 }
        func unmovedBefore(_ source: Int) -> Int { source - sortedSources._countLess(than: source) }

        // Heads, as in the flat method, but only inside the row's new section.
        var heads = [Int?](repeating: nil, count: count)
        for (rank, index) in order.enumerated() where nestedTargets[index] > 0 {
            let previous = targets[index] - 1
            if rank > 0, sortedTargets[rank - 1] == previous {
                heads[index] = heads[order[rank - 1]]
                continue
            }
            let unmoved = previous - rank
            heads[index] = unmoved + unmovedBeforeSource._countLess(than: unmoved + 1)
        }

        // Where each old section's rows begin in source positions.
        var sourceStarts: [Section: Int] = [:]
        func sourceStart(of key: Section) -> Int {
            if let start = sourceStarts[key] { return start }
            let oldStart = old._firstRow(of: key)
            let start = oldStart - flat.deletions._countLess(than: oldStart)
            sourceStarts[key] = start
            return start
        }
        var oldKeys: [Section] = [], newKeys: [Section] = []
        oldKeys.reserveCapacity(count)
        newKeys.reserveCapacity(count)
        for (index, move) in itemMoves.enumerated() {
            let oldKey = old._keys[move.from.section], newKey = new._keys[move.to.section]
            oldKeys.append(oldKey)
            newKeys.append(newKey)
            sourceStarts[oldKey] = sources[index] - nestedSources[index]
        }

        let coordinates = sources + heads.compactMap { $0 }
        var unplaced = _FenwickTree(keys: coordinates)
        var placedBehindHead = _FenwickTree(keys: coordinates)
        for source in sources { unplaced.add(1, at: source) }
        var placedAtStart: [Section: Int] = [:]
        for index in order {
            let source = sources[index]
            let oldKey = oldKeys[index], newKey = newKeys[index]
            let start = sourceStart(of: oldKey)
            let from = unmovedBefore(source) - unmovedBefore(start)
                + unplaced.sum(below: source) - unplaced.sum(below: start)
                + placedBehindHead.sum(below: source) - placedBehindHead.sum(below: start)
                + placedAtStart[oldKey, default: 0]
            unplaced.add(-1, at: source)
            let to: Int
            if let head = heads[index] {
                let newStart = sourceStart(of: newKey)
                to = nestedTargets[index] + unplaced.sum(below: head) - unplaced.sum(below: newStart)
                placedBehindHead.add(1, at: head)
            } else {
                to = nestedTargets[index]
                placedAtStart[newKey, default: 0] += 1
            }
            steps.append(.move(
                from: ListIndexPath(section: currentSection(oldKey), item: from),
                to: ListIndexPath(section: currentSection(newKey), item: to)
            ))
        }
    }
}

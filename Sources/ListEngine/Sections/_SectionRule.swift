/// The sectioning of a ``SectionedListDataSource``: each item's section key, and how
/// sections and index paths follow from the flat rows.
///
/// Sections are not stored with counts: a section's rows are found in the flat rows,
/// which are section-major, by searching for where its key begins. What is stored per
/// snapshot is only the ascending keys, in a copy-on-write counted B-tree
/// (``_SectionKeys``), so a batch changes O(log *s*) nodes per section it adds or removes
/// and snapshots share the rest.
@usableFromInline struct _SectionRule<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: Sendable {
    /// Each item's section key.
    @usableFromInline let sectionOf: @Sendable (Item) -> Section

    @inlinable init(sectionOf: @escaping @Sendable (Item) -> Section) {
        self.sectionOf = sectionOf
    }

    @inlinable func isSectionChanged(from old: Item, to new: Item) -> Bool {
        sectionOf(old) != sectionOf(new)
    }

    @inlinable func sectionMajor(_ order: (@Sendable (Item, Item) -> Bool)?) -> @Sendable (Item, Item) -> Bool {
        let sectionOf = sectionOf
        if let order {
            return { lhs, rhs in
                let left = sectionOf(lhs), right = sectionOf(rhs)
                return left < right || (left == right && order(lhs, rhs))
            }
        }
        return { lhs, rhs in
            let left = sectionOf(lhs), right = sectionOf(rhs)
            return left < right || (left == right && lhs < rhs)
        }
    }

    /// The section-major order as a list's row order, with its keyed sort: each item's
    /// key computed once per sort rather than at every comparison.
    @inlinable func rowOrder(_ order: (@Sendable (Item, Item) -> Bool)?) -> _RowOrder<Item> {
        _RowOrder(sectionMajor(order), keyedSort: keyedSort(order), keyedBound: keyedBound(order))
    }

    /// Finds an item's bound among ascending elements in section-major order, computing
    /// the item's section once per search: the searches of a bulk edit, whose
    /// comparisons would otherwise compute two sections each.
    ///
    /// - Complexity: one call of `sectionOf` for the item, and O(log *m*) calls of
    ///   `sectionOf` and comparisons for *m* elements searched.
    @inlinable func keyedBound(_ order: (@Sendable (Item, Item) -> Bool)?) -> @Sendable (Item, _RowOrder<Item>._Bound, [Item], Int) -> Int {
        let sectionOf = sectionOf
        if let order {
            return { item, bound, elements, low in Self._bound(of: item, bound, in: elements, from: low, sectionOf: sectionOf, by: order) }
        }
        return { item, bound, elements, low in Self._bound(of: item, bound, in: elements, from: low, sectionOf: sectionOf, by: { $0 < $1 }) }
    }

    /// The bound ``_RowOrder/bound(of:_:in:from:)`` finds, in the order
    /// ``sectionMajor(_:)`` makes of `sectionOf` and `less`: each comparison the same
    /// as that order's, with the item's section computed once.
    @inlinable static func _bound(
        of item: Item, _ bound: _RowOrder<Item>._Bound, in elements: [Item], from low: Int, sectionOf: (Item) -> Section, by less: (Item, Item) -> Bool
    ) -> Int {
        let section = sectionOf(item)
        switch bound {
        case .lower:
            // The first element not before the item: not (its section before the item's,
            // or the same section and the element before the item).
            return _CountedBTree<Item>._partitioningIndex(of: elements, from: low) { element in
                let other = sectionOf(element)
                return !(other < section || (other == section && less(element, item)))
            }
        case .upper:
            // The first element the item sorts before.
            return _CountedBTree<Item>._partitioningIndex(of: elements, from: low) { element in
                let other = sectionOf(element)
                return section < other || (section == other && less(item, element))
            }
        }
    }

    /// Sorts positions of items stably in section-major order, reading each item's key
    /// once: for the sorts of bulk edits and builds, whose comparisons would otherwise
    /// compute two keys each.
    ///
    /// - Complexity: *k* calls of `sectionOf` and O(*k* log *k*) comparisons for *k* items.
    @inlinable func keyedSort(_ order: (@Sendable (Item, Item) -> Bool)?) -> @Sendable ([Item], Range<Int>) -> [Int32] {
        let sectionOf = sectionOf
        return { items, range in
            var keyed: [(key: Section, position: Int32)] = []
            keyed.reserveCapacity(range.count)
            for position in range { keyed.append((sectionOf(items[position]), Int32(truncatingIfNeeded: position))) }
            items.withUnsafeBufferPointer { items in
                // Stable: ties keep their order in `items`.
                if let order {
                    keyed.sort { $0.key < $1.key || ($0.key == $1.key && order(items[Int($0.position)], items[Int($1.position)])) }
                } else {
                    keyed.sort { $0.key < $1.key || ($0.key == $1.key && items[Int($0.position)] < items[Int($1.position)]) }
                }
            }
            return keyed.map { $0.position }
        }
    }

    @inlinable func sections(of storage: _ListStorage<Item>) -> _AnySections {
        let starts = storage.rows.runStarts(by: sectionOf)
        return _SectionKeys(keys: _CountedBTree(starts.map(\.key)), starts: starts)
    }

    /// Every section's key and first flat row in `rows`: the ones stored with it, or
    /// found by a walk.
    ///
    /// - Complexity: O(1) when stored; otherwise as ``_CountedBTree/runStarts(by:)``.
    @inlinable func sectionStarts(of rows: ListSnapshot<Item>) -> [(key: Section, start: Int)] {
        if let stored = (rows._sections as? _SectionKeys<Section>)?.starts { return stored }
        return rows._storage.rows.runStarts(by: sectionOf)
    }

    /// The section keys of `rows`: the ones stored with it, or found by a walk.
    ///
    /// - Complexity: O(1) for a snapshot of a sectioned list; otherwise as
    ///   ``_CountedBTree/runStarts(by:)``.
    @inlinable func keys(of rows: ListSnapshot<Item>) -> _CountedBTree<Section> {
        if let stored = rows._sections as? _SectionKeys<Section> { return stored.keys }
        return _CountedBTree(sectionStarts(of: rows).map(\.key))
    }

    /// `rows` as a sectioned snapshot.
    ///
    /// - Complexity: O(1) for a snapshot of a sectioned list.
    @inlinable func snapshot(of rows: ListSnapshot<Item>) -> SectionedSnapshot<Section, Item> {
        SectionedSnapshot(rows: rows, keys: keys(of: rows), sectionOf: sectionOf)
    }

    @inlinable func sectioned(_ batch: ChangeBatch<Item>) -> ChangeBatch<Item> {
        let parts = parts(of: batch, newKeys: nil)
        let new = ListSnapshot(_storage: batch.new._storage, version: batch.new.version, sections: _SectionKeys(keys: parts.newKeys, starts: parts.newStarts))
        var sectioned = ChangeBatch(
            old: batch.old, new: new, deletions: batch.deletions, insertions: batch.insertions, moves: batch.moves, reloads: batch.reloads
        )
        sectioned._sectioned = parts
        return sectioned
    }

    /// The index-path form of `batch`: the one attached to it, or computed now.
    ///
    /// - Complexity: O(1) when attached; otherwise as ``parts(of:newKeys:)``.
    @inlinable func indexPathForm(of batch: ChangeBatch<Item>) -> _SectionedParts<Section> {
        if let attached = batch._sectioned as? _SectionedParts<Section> { return attached }
        return parts(of: batch, newKeys: batch.new._sections == nil ? nil : keys(of: batch.new))
    }

    /// The sets of `batch` in index paths, and the section keys of its `new` snapshot
    /// (given, or derived from the rows).
    ///
    /// A batch that changes rows in few of the sections finds the sections of those rows
    /// by searches (``_partsSearchingSections(of:newKeys:)``); one that changes rows
    /// throughout walks its snapshots for every section's first row
    /// (``_partsWalkingSections(of:newKeys:)``). ``_EditStrategy/walksSections(changedRows:sectionCount:rowCount:)``
    /// picks; both give the same parts.
    ///
    /// - Complexity: the lesser of the two, about.
    @inlinable func parts(of batch: ChangeBatch<Item>, newKeys givenNewKeys: _CountedBTree<Section>?) -> _SectionedParts<Section> {
        let changedRows = batch.deletions.count + batch.moves.count + batch.insertions.count + batch.reloads.count
        if _EditStrategy.walksSections(changedRows: changedRows, sectionCount: keys(of: batch.old).count, rowCount: batch.old.count) {
            return _partsWalkingSections(of: batch, newKeys: givenNewKeys)
        }
        return _partsSearchingSections(of: batch, newKeys: givenNewKeys)
    }

    /// ``parts(of:newKeys:)`` for a batch that touches few sections.
    ///
    /// The changed rows are grouped by section with one search per group for its range
    /// of flat rows (inside the leaf of its first changed row, where the section lies in
    /// it), so rows in a section already found cost O(1) each. A key is gone when every
    /// one of its rows left and none arrived; a key rows arrived in is new if `old` did
    /// not have it. The new keys, unless given, are the old keys with those changes.
    ///
    /// - Complexity: O(*k* log *k* + *g* (log *n* + log *s*)) for *k* changed rows in *g*
    ///   distinct sections, *n* rows and *s* sections.
    @inlinable func _partsSearchingSections(of batch: ChangeBatch<Item>, newKeys givenNewKeys: _CountedBTree<Section>?) -> _SectionedParts<Section> {
        let oldKeys = keys(of: batch.old)
        let moveSources = batch.moves.map(\.from).sorted()
        let oldGroups = _SectionGroups(rows: batch.old, sectionOf: sectionOf, offsets: _mergedAscending(batch.deletions, moveSources))
        let newGroups = _SectionGroups(
            rows: batch.new, sectionOf: sectionOf,
            offsets: _mergedAscending(_mergedAscending(batch.insertions, batch.moves.map(\.to).sorted()), batch.reloads)
        )
        let oldSnapshot = SectionedSnapshot(rows: batch.old, keys: oldKeys, sectionOf: sectionOf)

        // Keys that rows left and that `new` no longer holds; keys rows arrived in that
        // `old` did not hold. Both ascending.
        var gone: [Section] = [], goneOffsets: [Int] = []
        // A key that rows also arrived in or changed in is still there; both lists of
        // groups ascend, so one walk finds those without a search.
        var newGroup = 0
        for (index, group) in oldGroups.groups.enumerated() {
            while newGroup < newGroups.groups.count && newGroups.groups[newGroup].key < group.key { newGroup += 1 }
            if newGroup < newGroups.groups.count && newGroups.groups[newGroup].key == group.key { continue }
            // No row arrived in the section, and a row that stays keeps its section (one
            // that changes section always moves, so its old offset is among the
            // departures): the section is gone exactly when all of its rows departed.
            if oldGroups.offsetCounts[index] == group.rows.count {
                gone.append(group.key)
                guard let offset = oldSnapshot.sectionIndex(of: group.key) else { preconditionFailure("old rows hold a key their sections lack") }
                goneOffsets.append(offset)
            }
        }
        var added: [Section] = []
        for group in newGroups.groups where oldSnapshot.sectionIndex(of: group.key) == nil {
            added.append(group.key)
        }
        let newKeys: _CountedBTree<Section>
        if let givenNewKeys {
            newKeys = givenNewKeys
        } else {
            var keys = oldKeys
            for offset in goneOffsets.reversed() { _ = keys.remove(at: offset) }
            for key in added { keys.insert(key, at: keys.partitioningIndex { !($0 < key) }) }
            newKeys = keys
        }
        let addedOffsets = added.map { key in newKeys.partitioningIndex { !($0 < key) } }

        let oldSections = oldGroups.groups.map { oldKeys.partitioningIndex(where: { [key = $0.key] in !($0 < key) }) }
        let newSections = newGroups.groups.map { newKeys.partitioningIndex(where: { [key = $0.key] in !($0 < key) }) }
        let itemDeletions = batch.deletions.map { oldGroups.indexPath(ofRowAt: $0, sections: oldSections) }
        let itemInsertions = batch.insertions.map { newGroups.indexPath(ofRowAt: $0, sections: newSections) }
        let itemReloads = batch.reloads.map { newGroups.indexPath(ofRowAt: $0, sections: newSections) }
        let itemMoves = batch.moves.map {
            ListIndexPathMove(from: oldGroups.indexPath(ofRowAt: $0.from, sections: oldSections), to: newGroups.indexPath(ofRowAt: $0.to, sections: newSections))
        }
        return _SectionedParts(
            newKeys: newKeys, sectionDeletions: goneOffsets, sectionInsertions: addedOffsets,
            itemDeletions: itemDeletions, itemInsertions: itemInsertions, itemMoves: itemMoves, itemReloads: itemReloads
        )
    }

    /// ``parts(of:newKeys:)`` for a batch that touches many sections: every section's
    /// first row is found in one walk of the new snapshot's rows
    /// (``_CountedBTree/runStarts(by:)``; the old snapshot's are kept from the batch
    /// before, or walked for too), and each changed row's index path by a pass along or
    /// a search of those starts; sections gone and added by one merge of the two
    /// snapshots' keys.
    ///
    /// - Complexity: O(*s* log *m* + *n* / *m*) calls of `sectionOf` for *s* sections in
    ///   both snapshots and leaves of *m* rows, plus O(*k* log *s*) for *k* changed rows.
    @inlinable func _partsWalkingSections(of batch: ChangeBatch<Item>, newKeys givenNewKeys: _CountedBTree<Section>?) -> _SectionedParts<Section> {
        let oldStarts = sectionStarts(of: batch.old)
        let newStarts = batch.new._storage.rows.runStarts(
            by: sectionOf, concurrently: oldStarts.count >= _Tuning.parallelSectionWalkMinimumSections
        )
        var goneOffsets: [Int] = [], addedOffsets: [Int] = []
        var old = 0, new = 0
        while old < oldStarts.count || new < newStarts.count {
            if new == newStarts.count || (old < oldStarts.count && oldStarts[old].key < newStarts[new].key) {
                goneOffsets.append(old)
                old += 1
            } else if old == oldStarts.count || newStarts[new].key < oldStarts[old].key {
                addedOffsets.append(new)
                new += 1
            } else {
                old += 1
                new += 1
            }
        }
        let oldRows = _SectionStarts(starts: oldStarts, rowCount: batch.old.count)
        let newRows = _SectionStarts(starts: newStarts, rowCount: batch.new.count)
        return _SectionedParts(
            newKeys: givenNewKeys ?? _CountedBTree(newStarts.map(\.key)), sectionDeletions: goneOffsets, sectionInsertions: addedOffsets,
            itemDeletions: oldRows.indexPaths(ofAscending: batch.deletions),
            itemInsertions: newRows.indexPaths(ofAscending: batch.insertions),
            itemMoves: batch.moves.map { ListIndexPathMove(from: oldRows.indexPath(ofRowAt: $0.from), to: newRows.indexPath(ofRowAt: $0.to)) },
            itemReloads: newRows.indexPaths(ofAscending: batch.reloads), newStarts: newStarts
        )
    }

}

/// The ascending keys of one snapshot's sections, as carried by a flat ``ListSnapshot``,
/// and each section's first flat row when a walk of the rows found them.
@usableFromInline final class _SectionKeys<Section: Sendable>: Sendable {
    @usableFromInline let keys: _CountedBTree<Section>
    /// Each section's key and first flat row, or `nil` if they were not walked for: a
    /// batch's sections are then found by searches. Kept so that the next batch, whose
    /// `old` snapshot this is, need not walk it again.
    @usableFromInline let starts: [(key: Section, start: Int)]?

    @inlinable init(keys: _CountedBTree<Section>, starts: [(key: Section, start: Int)]? = nil) {
        self.keys = keys
        self.starts = starts
    }
}

/// A batch's sets in index paths, and the section keys of its `new` snapshot, as carried
/// by a flat ``ChangeBatch``.
@usableFromInline final class _SectionedParts<Section: Sendable>: Sendable {
    @usableFromInline let newKeys: _CountedBTree<Section>
    @usableFromInline let sectionDeletions: [Int]
    @usableFromInline let sectionInsertions: [Int]
    @usableFromInline let itemDeletions: [ListIndexPath]
    @usableFromInline let itemInsertions: [ListIndexPath]
    @usableFromInline let itemMoves: [ListIndexPathMove]
    @usableFromInline let itemReloads: [ListIndexPath]
    /// Each section's key and first flat row in the `new` snapshot, when they were
    /// walked for.
    @usableFromInline let newStarts: [(key: Section, start: Int)]?

    @inlinable init(
        newKeys: _CountedBTree<Section>, sectionDeletions: [Int], sectionInsertions: [Int], itemDeletions: [ListIndexPath],
        itemInsertions: [ListIndexPath], itemMoves: [ListIndexPathMove], itemReloads: [ListIndexPath],
        newStarts: [(key: Section, start: Int)]? = nil
    ) {
        self.newStarts = newStarts
        self.newKeys = newKeys
        self.sectionDeletions = sectionDeletions
        self.sectionInsertions = sectionInsertions
        self.itemDeletions = itemDeletions
        self.itemInsertions = itemInsertions
        self.itemMoves = itemMoves
        self.itemReloads = itemReloads
    }
}

/// Rows of one snapshot, given by ascending flat offsets, grouped by section: each
/// group's key and range of flat rows.
@usableFromInline struct _SectionGroups<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable> {
    /// The groups, ascending by key.
    @usableFromInline var groups: [(key: Section, rows: Range<Int>)] = []
    /// For each group, how many distinct offsets fell into it.
    @usableFromInline var offsetCounts: [Int] = []

    /// Groups `offsets` (ascending, duplicates allowed) of `rows`.
    ///
    /// - Complexity: O(*k* + *g* log *n*) for *k* offsets in *g* sections; one descent per
    ///   section whose rows lie inside one leaf.
    @inlinable init(rows: ListSnapshot<Item>, sectionOf: @Sendable (Item) -> Section, offsets: [Int]) {
        var previous: Int? = nil
        for offset in offsets {
            defer { previous = offset }
            if let last = groups.last, last.rows.contains(offset) {
                if offset != previous { offsetCounts[offsetCounts.count - 1] += 1 }
                continue
            }
            let run = rows._storage.rows.run(containing: offset, by: sectionOf)
            groups.append((run.key, run.positions))
            offsetCounts.append(1)
        }
    }

    /// The index path of the row at flat `offset`, one of the grouped offsets, given each
    /// group's section offset.
    ///
    /// - Complexity: O(log *g*).
    @inlinable func indexPath(ofRowAt offset: Int, sections: [Int]) -> ListIndexPath {
        var low = 0, high = groups.count
        while low < high {
            let mid = (low + high) / 2
            if groups[mid].rows.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        precondition(low < groups.count && groups[low].rows.contains(offset), "row \(offset) is not in a grouped section")
        return ListIndexPath(section: sections[low], item: offset - groups[low].rows.lowerBound)
    }
}

/// Every section's first row in one snapshot, as ``_CountedBTree/runStarts(by:)`` finds
/// them: index paths of flat offsets by one search.
@usableFromInline struct _SectionStarts<Section> {
    /// Each section's key and first flat row, ascending.
    @usableFromInline let starts: [(key: Section, start: Int)]
    /// The snapshot's number of rows.
    @usableFromInline let rowCount: Int

    @inlinable init(starts: [(key: Section, start: Int)], rowCount: Int) {
        self.starts = starts
        self.rowCount = rowCount
    }

    /// The index path of the row at flat `offset`.
    ///
    /// - Complexity: O(log *s*) for *s* sections.
    @inlinable func indexPath(ofRowAt offset: Int) -> ListIndexPath {
        precondition(offset >= 0 && offset < rowCount, "row \(offset) out of range 0..<\(rowCount)")
        // The last section starting at or before `offset`; the first starts at 0.
        var low = 1, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        return ListIndexPath(section: low - 1, item: offset - starts[low - 1].start)
    }

    /// The index paths of the rows at ascending flat `offsets`, by one walk along the
    /// sections.
    ///
    /// - Complexity: O(*k* + *s*) for *k* offsets and *s* sections.
    @inlinable func indexPaths(ofAscending offsets: [Int]) -> [ListIndexPath] {
        var section = 0
        return offsets.map { offset in
            precondition(offset >= 0 && offset < rowCount, "row \(offset) out of range 0..<\(rowCount)")
            while section + 1 < starts.count && starts[section + 1].start <= offset { section += 1 }
            return ListIndexPath(section: section, item: offset - starts[section].start)
        }
    }
}

/// The elements of two ascending arrays, ascending.
///
/// - Complexity: O(*a* + *b*).
@inlinable func _mergedAscending(_ first: [Int], _ second: [Int]) -> [Int] {
    var merged: [Int] = []
    merged.reserveCapacity(first.count + second.count)
    var i = 0, j = 0
    while i < first.count || j < second.count {
        if j == second.count || (i < first.count && first[i] <= second[j]) {
            merged.append(first[i])
            i += 1
        } else {
            merged.append(second[j])
            j += 1
        }
    }
    return merged
}

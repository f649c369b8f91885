extension _CountedBTree {
    /// Where each run of elements with equal keys starts, for a tree whose equal keys
    /// are adjacent (rows in section-major order, keyed by section): each run's key and
    /// the position of its first element, in order.
    ///
    /// The walk skips every subtree whose first element and the element after it have
    /// the same key (the whole subtree is then inside one run) and searches the leaves
    /// it does enter, so it reads about two keys per leaf that holds a run's start and a
    /// few per branch, not one per element.
    ///
    /// - Complexity: O(*r* log *m* + *b*) calls of `key` for *r* runs, leaves of *m*
    ///   elements and *b* nodes entered, and never more than about one per element (a run
    ///   of a few elements is found by a scan); at most O(*r* log *n*) nodes are entered.
    @inlinable func runStarts<Key: Equatable>(by key: (Element) -> Key) -> [(key: Key, start: Int)] {
        guard let root else { return [] }
        var starts: [(key: Key, start: Int)] = []
        Self._collectRunStarts(in: root, at: 0, firstKey: key(root.first), nextKey: nil, into: &starts, by: key)
        return starts
    }

    /// The run of elements that share the key of the element at `position`, for a tree
    /// whose equal keys are adjacent and ascending (rows in section-major order, keyed by
    /// section): that key and the positions the run spans.
    ///
    /// The run's ends are looked for in the leaf that holds `position`; only an end at
    /// the leaf's edge, where the run may go on into the next leaf, is found by a search
    /// from the root. A run inside one leaf (a section of a few rows, say) so costs one
    /// descent, where reading the element and searching for both ends cost three.
    ///
    /// - Precondition: `0 <= position < count`.
    /// - Complexity: O(log *n*) calls of `key`.
    @inlinable func run<Key: Comparable>(containing position: Int, by key: (Element) -> Key) -> (key: Key, positions: Range<Int>) {
        precondition(position >= 0 && position < count, "_CountedBTree position out of range")
        var node = root.unsafelyUnwrapped
        var slot = position
        while !node.isLeaf {
            node = node.children[node.slot(containing: &slot)]
        }
        let elements = node.elements, leafStart = position - slot
        let runKey = key(elements[slot])
        // Keys ascend, so the run's elements in this leaf are the ones neither below nor
        // above `runKey`, on either side of `slot`.
        let first = Self._partitioningIndex(of: elements, in: 0 ..< slot) { !(key($0) < runKey) }
        let end = Self._partitioningIndex(of: elements, in: slot + 1 ..< elements.count) { runKey < key($0) }
        let lower = first > 0 || leafStart == 0 ? leafStart + first : partitioningIndex { !(key($0) < runKey) }
        let upper = end < elements.count || leafStart + end == count ? leafStart + end : partitioningIndex { runKey < key($0) }
        return (runKey, lower ..< upper)
    }

    /// How many elements after a run's start ``runStarts(by:)`` compares one by one
    /// before it searches.
    @inlinable static var _runScanLength: Int { 8 }

    /// Appends the run starts inside the subtree of `node`, which begins at `offset`
    /// with an element keyed `firstKey` and is followed by an element keyed `nextKey`
    /// (`nil` at the tree's end).
    @inlinable static func _collectRunStarts<Key: Equatable>(
        in node: _Node, at offset: Int, firstKey: Key, nextKey: Key?, into starts: inout [(key: Key, start: Int)], by key: (Element) -> Key
    ) {
        if starts.last?.key != firstKey { starts.append((firstKey, offset)) }
        // Equal keys are adjacent: a subtree that starts and is followed by one key is
        // all that key.
        if nextKey == firstKey { return }
        if node.isLeaf {
            node.elements.withUnsafeBufferPointer { elements in
                var current = firstKey, position = 0
                // Most leaves a walk enters hold one start: the last element's key
                // tells, by one read, that a search for another would find none.
                let lastKey = key(elements[elements.count - 1])
                while current != lastKey {
                    // The first element after `position` with another key: looked
                    // for among the next few elements first, which share its cache
                    // lines (so runs of a few elements cost a scan, not a search),
                    // then by a binary search of the rest.
                    var low = position + 1
                    let scanned = Swift.min(position + _runScanLength, elements.count)
                    while low < scanned && key(elements[low]) == current { low += 1 }
                    var high = low < scanned ? low : elements.count
                    while low < high {
                        let middle = (low + high) / 2
                        if key(elements[middle]) == current { low = middle + 1 } else { high = middle }
                    }
                    current = key(elements[low])
                    starts.append((current, offset + low))
                    position = low
                }
            }
            return
        }
        _collectRunStarts(in: _Siblings(childrenOf: node), node.children.indices, at: offset, firstKey: firstKey, nextKey: nextKey, into: &starts, by: key)
    }

    /// Appends the run starts inside `siblings[slots]`, which begin at `offset` with an
    /// element keyed `firstKey` and are followed by an element keyed `nextKey` (`nil` at
    /// the tree's end).
    @inlinable static func _collectRunStarts<Key: Equatable>(
        in siblings: _Siblings, _ slots: Range<Int>, at offset: Int, firstKey: Key, nextKey: Key?,
        into starts: inout [(key: Key, start: Int)], by key: (Element) -> Key
    ) {
        var childOffset = offset, childKey = firstKey
        for slot in slots {
            let followingKey = slot + 1 < slots.upperBound ? key(siblings.firsts[slot + 1]) : nextKey
            _collectRunStarts(in: siblings.nodes[slot], at: childOffset, firstKey: childKey, nextKey: followingKey, into: &starts, by: key)
            childOffset += siblings.counts[slot]
            if let followingKey { childKey = followingKey }
        }
    }
}

extension _CountedBTree where Element: Sendable {
    /// ``runStarts(by:)``, the walk cut into an earlier and a later half of about equal
    /// rows that run on two threads when `concurrently`.
    ///
    /// The walk waits on memory: each leaf it enters is searched, and a search in a
    /// leaf that is not in the cache waits for each read in turn. Two threads wait
    /// for two leaves at a time.
    ///
    /// - Parameter concurrently: whether to walk on two threads; `false`, or a tree of
    ///   one leaf, walks on the calling thread.
    /// - Complexity: as ``runStarts(by:)``, about halved in time on two cores, plus
    ///   O(log *n*) calls of `key` at the cut.
    @inlinable func runStarts<Key: Equatable & Sendable>(
        by key: @escaping @Sendable (Element) -> Key, concurrently: Bool
    ) -> [(key: Key, start: Int)] {
        guard concurrently, let level = _levelToCut(), level.nodes.count >= 2 else { return runStarts(by: key) }
        // The later half starts at the first node that ends past half the rows.
        var later = 1, rowsBefore = level.counts[0]
        while later < level.nodes.count - 1 && rowsBefore + level.counts[later] <= count / 2 {
            rowsBefore += level.counts[later]
            later += 1
        }
        let cut = later, laterOffset = rowsBefore, nodes = level.nodes.count
        return _joinedConcurrently(
            {
                var starts: [(key: Key, start: Int)] = []
                Self._collectRunStarts(in: level, 0 ..< cut, at: 0, firstKey: key(level.firsts[0]), nextKey: key(level.firsts[cut]), into: &starts, by: key)
                return starts
            },
            {
                // Seeded with the key of the row before the cut, so that a run going on
                // across the cut is not started twice; the seed is dropped.
                var starts: [(key: Key, start: Int)] = [(key(Self._last(of: level.nodes[cut - 1])), -1)]
                Self._collectRunStarts(in: level, cut ..< nodes, at: laterOffset, firstKey: key(level.firsts[cut]), nextKey: nil, into: &starts, by: key)
                return Array(starts.dropFirst())
            },
            callerRunsFirstPart: true
        )
    }
}

extension ChangeBatch {
    /// The batch as a sequential edit script.
    ///
    /// Each step's offsets refer to the list as it stands after the previous steps:
    /// first the deletions (highest offset first), then the moves, then the insertions
    /// (lowest offset first), then the reloads. Applying the steps one by one to an
    /// array holding `old` gives `new`. There is exactly one step per deletion, move,
    /// insertion and reload.
    ///
    /// Moves are placed in the order of their destinations; each moved row is put right
    /// after the row that precedes it in `new`, so earlier placements are never disturbed.
    ///
    /// - Complexity: O(*c* log *n*) for *c* changes and *n* rows: it never walks the list.
    @inlinable public var steps: [ListStep<Item>] {
        var steps: [ListStep<Item>] = []
        steps.reserveCapacity(deletions.count + moves.count + insertions.count + reloads.count)
        for offset in deletions.reversed() { steps.append(.remove(at: offset)) }
        _appendMoveSteps(to: &steps)
        for offset in insertions { steps.append(.insert(new[offset], at: offset)) }
        for offset in reloads { steps.append(.reload(new[offset], at: offset)) }
        return steps
    }

    /// Appends one `.move` step per move, for the list after the deletions.
    ///
    /// Working list positions are derived, not simulated: after the deletions the list
    /// is `old` minus deletions (call its offsets *source* positions); the moves turn it
    /// into `new` minus insertions (*target* positions). A row that is placed goes right
    /// after its predecessor in the target order; the chain of placed rows behind an
    /// unmoved row (its *head*) always stays contiguous. Two Fenwick trees over source
    /// positions count rows not yet placed and rows placed behind each head.
    ///
    /// Unmoved rows keep their relative order, so the *k*-th unmoved row in target
    /// order is the *k*-th in source order: heads are found from positions alone, never
    /// by looking rows up by id (which an id type whose `==` is not reflexive, such as a
    /// `Double` holding NaN, would not allow).
    @inlinable func _appendMoveSteps(to steps: inout [ListStep<Item>]) {
        guard !moves.isEmpty else { return }
        let sources = moves.map { $0.from - deletions._countLess(than: $0.from) }
        let targets = moves.map { $0.to - insertions._countLess(than: $0.to) }
        let order = moves.indices.sorted { targets[$0] < targets[$1] }
        let sortedSources = sources.sorted()
        let sortedTargets = order.map { targets[$0] }
        // `sortedSources[i] - i` unmoved rows come before the i-th moved one in source
        // order; it never decreases.
        let unmovedBeforeSource = sortedSources.indices.map { sortedSources[$0] - $0 }

        // The head of each move: source position of the nearest unmoved row before it
        // in target order, or nil when only moved rows precede it.
        var heads = [Int?](repeating: nil, count: moves.count)
        for (rank, index) in order.enumerated() where targets[index] > 0 {
            let previous = targets[index] - 1
            if rank > 0, sortedTargets[rank - 1] == previous {
                heads[index] = heads[order[rank - 1]]
                continue
            }
            // The unmoved row at target position `previous` is the `unmoved`-th unmoved
            // row (from 0), and so the `unmoved`-th in source order too.
            let unmoved = previous - rank
            let movedBefore = unmovedBeforeSource._countLess(than: unmoved + 1)
            heads[index] = unmoved + movedBefore
        }

        let coordinates = sources + heads.compactMap { $0 }
        var unplaced = _FenwickTree(keys: coordinates)
        var placedBehindHead = _FenwickTree(keys: coordinates)
        for source in sources { unplaced.add(1, at: source) }
        var placedAtStart = 0
        for index in order {
            let source = sources[index]
            let unmovedBefore = source - sortedSources._countLess(than: source)
            let from = unmovedBefore + unplaced.sum(below: source) + placedBehindHead.sum(below: source) + placedAtStart
            unplaced.add(-1, at: source)
            let to: Int
            if let head = heads[index] {
                to = targets[index] + unplaced.sum(below: head)
                placedBehindHead.add(1, at: head)
            } else {
                to = targets[index]
                placedAtStart += 1
            }
            steps.append(.move(from: from, to: to))
        }
    }
}

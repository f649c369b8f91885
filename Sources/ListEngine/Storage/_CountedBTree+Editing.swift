import Synchronization

extension _CountedBTree {
    /// A node built or kept by an editing pass, with the facts its parent stores about it.
    @usableFromInline struct _Fragment {
        @usableFromInline var node: _Node
        @usableFromInline var count: Int
        @usableFromInline var first: Element
        /// Whether the node was built by the pass (and so may be under half full).
        @usableFromInline var isNew: Bool

        @inlinable init(node: _Node, count: Int, first: Element, isNew: Bool) {
            self.node = node
            self.count = count
            self.first = first
            self.isNew = isNew
        }
    }

    /// The tree with the editor's edits applied, built in one pass; `nil` when the
    /// editor gave up, or the tree is empty.
    ///
    /// Subtrees without edits are shared with this tree, not copied; each leaf with edits
    /// is rebuilt once, however many edits it takes, and each branch above one once.
    /// Leaves that overflow are split, and nodes left under half full are merged with a
    /// neighbour, so the result has every structural property of the tree.
    ///
    /// - Complexity: O(*e* log *n*) editor calls plus O(*l* · *b*) copies, for *e* edits
    ///   falling into *l* leaves of capacity *b*.
    @inlinable func _editing<Editor: _TreeEditor>(with editor: inout Editor) -> _CountedBTree? where Editor.Element == Element {
        guard let root else { return nil }
        var emitted = 0
        var fragments: [_Fragment] = []
        guard Self._edit(root, 0 ..< editor.editCount, oldOffset: 0, emitted: &emitted, editor: &editor, fanout: fanout, into: &fragments) else {
            return nil
        }
        return Self._tree(stacking: fragments, fanout: fanout)
    }

    /// The tree whose top level is `fragments` (nodes of one height, in order, each at
    /// least half full unless there is only one).
    @inlinable static func _tree(stacking fragments: [_Fragment], fanout: _Fanout) -> _CountedBTree {
        var fragments = fragments
        var result = _CountedBTree(fanout: fanout)
        // Several nodes at the top get branches above them until one is left.
        while fragments.count > 1 { fragments = _branches(holding: fragments, fanout: fanout) }
        if var top = fragments.first?.node {
            // A root branch needs two children; shed levels with one.
            while !top.isLeaf && top.children.count == 1 { top = top.children[0] }
            result.root = top
        }
        result._checkInvariants()
        return result
    }

    /// Appends to `fragments` the nodes that replace `node` once `edits` are applied to
    /// it: none, one (which may be under half full), or several of at least half
    /// capacity. Returns `false` when the editor gave up.
    @inlinable static func _edit<Editor: _TreeEditor>(
        _ node: _Node, _ edits: Range<Int>, oldOffset: Int, emitted: inout Int, editor: inout Editor, fanout: _Fanout,
        into fragments: inout [_Fragment]
    ) -> Bool where Editor.Element == Element {
        if node.isLeaf {
            _readIntoCache(node.elements)
            guard let total = editor.count(after: edits, in: node.elements, oldOffset: oldOffset) else { return false }
            var writer = _LeafWriter<Element>(total: total, capacity: fanout.leaf)
            guard editor.apply(edits, to: node.elements, oldOffset: oldOffset, newOffset: emitted, into: &writer), writer.count == total else {
                return false
            }
            emitted += total
            writer.finish(into: &fragments)
            return true
        }
        var built: [_Fragment] = []
        built.reserveCapacity(node.children.count + 2)
        guard _edit(_Siblings(childrenOf: node), node.children.indices, edits, oldOffset: oldOffset, emitted: &emitted, editor: &editor, fanout: fanout, into: &built) else {
            return false
        }
        fragments.append(contentsOf: _branches(holding: _normalized(built, fanout: fanout), fanout: fanout))
        return true
    }

    /// Reads one byte of every cache line of `elements`, in order, so that what reads
    /// them next finds them in the cache.
    ///
    /// An edit of a leaf first finds where each of its edits goes by binary searches:
    /// in a leaf that is not in the cache, every probe waits for memory, and each waits
    /// for the one before, since it decides where the next one reads. These reads
    /// depend on nothing, so the processor makes many at once and the hardware
    /// prefetcher follows them: the leaf comes in at the memory's bandwidth rather than
    /// at its latency, and the searches and the copy that follow read it from the cache.
    /// In a bulk edit that touches every leaf of a million rows, this made the change
    /// about a fifth faster (see `Benchmarks/README.md`).
    ///
    /// - Complexity: O(*b* / 64) reads for *b* bytes of elements.
    @inlinable @inline(__always) static func _readIntoCache(_ elements: [Element]) {
        let sum = elements.withUnsafeBytes { bytes -> UInt8 in
            var sum: UInt8 = 0, offset = 0
            while offset < bytes.count {
                sum &+= bytes[offset]
                offset &+= 64
            }
            return sum
        }
        // A store that depends on every read, so that the reads are not optimized away;
        // it happens for about one leaf in 256, to an atomic that nothing else touches.
        if sum == 0x5A { _cacheReadSink.store(sum, ordering: .relaxed) }
    }

    /// Nodes of one height that sit side by side in the tree, with their counts and
    /// first elements: the children of a branch, or a whole level of the tree.
    @usableFromInline struct _Siblings {
        @usableFromInline var nodes: [_Node]
        @usableFromInline var counts: [Int]
        @usableFromInline var firsts: [Element]

        @inlinable init(nodes: [_Node], counts: [Int], firsts: [Element]) {
            self.nodes = nodes
            self.counts = counts
            self.firsts = firsts
        }

        /// The children of `branch`.
        @inlinable init(childrenOf branch: _Node) {
            self.init(nodes: branch.children, counts: branch.childCounts, firsts: branch.childFirsts)
        }
    }

    /// Appends to `built` the nodes that replace `siblings[slots]` once `edits` are
    /// applied to them, each edit going into the node ``_route(_:before:in:slots:editor:)``
    /// picks. Returns `false` when the editor gave up.
    @inlinable static func _edit<Editor: _TreeEditor>(
        _ siblings: _Siblings, _ slots: Range<Int>, _ edits: Range<Int>, oldOffset: Int, emitted: inout Int, editor: inout Editor,
        fanout: _Fanout, into built: inout [_Fragment]
    ) -> Bool where Editor.Element == Element {
        var edit = edits.lowerBound, slot = slots.lowerBound, offset = oldOffset
        func keep(upTo end: Int) -> Bool {
            while slot < end {
                guard editor.keep(siblings.nodes[slot]) else { return false }
                let count = siblings.counts[slot]
                built.append(_Fragment(node: siblings.nodes[slot], count: count, first: siblings.firsts[slot], isNew: false))
                emitted += count
                offset += count
                slot += 1
            }
            return true
        }
        while edit < edits.upperBound {
            let (target, end) = _route(edit, before: edits.upperBound, in: siblings, slots: slot ..< slots.upperBound, editor: editor)
            guard keep(upTo: target),
                  _edit(siblings.nodes[target], edit ..< end, oldOffset: offset, emitted: &emitted, editor: &editor, fanout: fanout, into: &built) else {
                return false
            }
            offset += siblings.counts[target]
            slot = target + 1
            edit = end
        }
        return keep(upTo: slots.upperBound)
    }

    /// The node among `siblings[slots]` that edit `edit` goes into, and the end of the
    /// edits (up to `limit`) that go into it with `edit`.
    ///
    /// An edit goes into the last node that starts at or before it (the first node,
    /// when it comes before every element). At least one edit goes into the node.
    @inlinable static func _route<Editor: _TreeEditor>(
        _ edit: Int, before limit: Int, in siblings: _Siblings, slots: Range<Int>, editor: Editor
    ) -> (target: Int, end: Int) where Editor.Element == Element {
        let next = _partitioningIndex(of: siblings.firsts, in: slots.lowerBound + 1 ..< slots.upperBound) { !editor.edit(edit, belongsAtOrAfter: $0) }
        let target = Swift.max(slots.lowerBound, next - 1)
        guard target + 1 < slots.upperBound else { return (target, limit) }
        return (target, _firstEdit(in: edit + 1 ..< limit, atOrAfter: siblings.firsts[target + 1], editor: editor))
    }

    /// The first edit in `edits` that belongs at or after `element`, or `edits.upperBound`.
    @inlinable static func _firstEdit<Editor: _TreeEditor>(in edits: Range<Int>, atOrAfter element: Element, editor: Editor) -> Int
    where Editor.Element == Element {
        var low = edits.lowerBound, high = edits.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if editor.edit(middle, belongsAtOrAfter: element) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Branches holding `children` (at least half full each, except a single branch).
    @inlinable static func _branches(holding children: [_Fragment], fanout: _Fanout) -> [_Fragment] {
        if children.isEmpty { return [] }
        var branches: [_Fragment] = []
        var start = 0
        for size in _evenSizes(total: children.count, target: fanout.branch, capacity: fanout.branch) {
            branches.append(_branch(of: children[start ..< start + size], fanout: fanout))
            start += size
        }
        return branches
    }

    /// One new branch whose children are `children`.
    @inlinable static func _branch(of children: ArraySlice<_Fragment>, fanout: _Fanout) -> _Fragment {
        var nodes: [_Node] = [], counts: [Int] = [], firsts: [Element] = []
        nodes.reserveCapacity(fanout.branch)
        counts.reserveCapacity(fanout.branch)
        firsts.reserveCapacity(fanout.branch)
        var total = 0
        for child in children {
            nodes.append(child.node)
            counts.append(child.count)
            firsts.append(child.first)
            total += child.count
        }
        let branch = _Node(children: nodes, childCounts: counts, childFirsts: firsts, count: total)
        return _Fragment(node: branch, count: total, first: firsts[0], isNew: true)
    }

    /// `nodes` (all of the same height) with every node under half full merged into a
    /// neighbour, so that all are at least half full unless only one is left.
    @inlinable static func _normalized(_ nodes: [_Fragment], fanout: _Fanout) -> [_Fragment] {
        var result: [_Fragment] = []
        result.reserveCapacity(nodes.count)
        for fragment in nodes {
            if let last = result.last, _isUnderfull(last, fanout: fanout) || _isUnderfull(fragment, fanout: fanout) {
                result.removeLast()
                result.append(contentsOf: _merged(last, fragment, fanout: fanout))
            } else {
                result.append(fragment)
            }
        }
        return result
    }

    @inlinable static func _isUnderfull(_ fragment: _Fragment, fanout: _Fanout) -> Bool {
        guard fragment.isNew else { return false }  // a kept non-root node is at least half full
        let node = fragment.node
        return node.isLeaf ? node.elements.count < fanout.leaf / 2 : node.children.count < fanout.branch / 2
    }

    /// Two neighbouring nodes of the same height as one node, or as two of at least
    /// half capacity when they do not fit in one.
    @inlinable static func _merged(_ left: _Fragment, _ right: _Fragment, fanout: _Fanout) -> [_Fragment] {
        if left.node.isLeaf {
            var writer = _LeafWriter<Element>(total: left.count + right.count, capacity: fanout.leaf)
            writer.append(contentsOf: left.node.elements, left.node.elements.indices)
            writer.append(contentsOf: right.node.elements, right.node.elements.indices)
            var leaves: [_Fragment] = []
            writer.finish(into: &leaves)
            return leaves
        }
        // The children of two branches, one of which may itself hold a child under half
        // full (a branch left with a single child): normalize that level too.
        var children: [_Fragment] = []
        children.reserveCapacity(left.node.children.count + right.node.children.count)
        for branch in [left, right] {
            let node = branch.node
            for slot in node.children.indices {
                children.append(_Fragment(node: node.children[slot], count: node.childCounts[slot], first: node.childFirsts[slot], isNew: branch.isNew))
            }
        }
        return _branches(holding: _normalized(children, fanout: fanout), fanout: fanout)
    }

    /// The last element of `node`'s subtree.
    ///
    /// - Complexity: O(log *n*).
    @inlinable static func _last(of node: _Node) -> Element {
        var node = node
        while !node.isLeaf { node = node.children[node.children.count - 1] }
        return node.elements[node.elements.count - 1]
    }
}

extension _CountedBTree._Siblings: Sendable where Element: Sendable {}

extension _CountedBTree._Fragment: Sendable where Element: Sendable {}

/// Where ``_CountedBTree/_readIntoCache(_:)`` stores a value now and then, so that its
/// reads have a use; never read.
@usableFromInline let _cacheReadSink = Atomic<UInt8>(0)

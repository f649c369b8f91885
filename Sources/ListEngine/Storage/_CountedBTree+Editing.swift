/// A sorted run of edits that ``_CountedBTree/_editing(with:)`` applies in one pass.
///
/// The editor owns the edits, numbered `0 ..< editCount` in the order of the tree's
/// elements (by whatever key the tree is ordered by), and knows how to apply those that
/// fall into one leaf. The pass routes each edit to its leaf and keeps every other
/// subtree as it is.
@usableFromInline protocol _TreeEditor<Element> {
    associatedtype Element

    /// The number of edits.
    var editCount: Int { get }

    /// Whether edit `edit` belongs at or after `element`: in the subtree that starts
    /// with `element` or in a later one.
    ///
    /// Must be monotonic over the edits: `false` for a prefix of them, `true` for the rest.
    func edit(_ edit: Int, belongsAtOrAfter element: Element) -> Bool

    /// The number of elements `leaf` holds once `edits` are applied, or `nil` when they
    /// cannot be applied here (an edit names an element that is not in this leaf, say);
    /// the whole pass is then abandoned. Called just before
    /// ``apply(_:to:oldOffset:newOffset:into:)`` with the same edits.
    ///
    /// - Parameter oldOffset: the position of `leaf[0]` in the tree being edited.
    mutating func count(after edits: Range<Int>, in leaf: [Element], oldOffset: Int) -> Int?

    /// Appends to `output` the elements of `leaf` with `edits` applied, in order: as many
    /// as ``count(after:in:oldOffset:)`` said.
    ///
    /// - Parameters:
    ///   - oldOffset: the position of `leaf[0]` in the tree being edited.
    ///   - newOffset: the position that the first appended element has in the new tree.
    /// - Returns: `false` to abandon the pass.
    mutating func apply(_ edits: Range<Int>, to leaf: [Element], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<Element>) -> Bool

    /// Called, in order with ``apply(_:to:oldOffset:newOffset:into:)``, for each subtree
    /// that the pass keeps unchanged.
    mutating func keep(_ subtree: _CountedBTree<Element>._Node) -> Bool

    /// Prepares a copy of the editor to apply the later part of a pass cut in two (see
    /// ``_CountedBTree/_editingConcurrently(with:from:)``): the copy starts in the
    /// middle of the tree without seeing what the earlier part writes.
    mutating func beginLaterPart()

    /// Takes over what `later`, a copy prepared by ``beginLaterPart()``, found while it
    /// applied `laterEdits` (the edits after this editor's) to the rest of the tree.
    /// Returns `false` to abandon the pass.
    ///
    /// - Parameters:
    ///   - emittedBefore: how many elements this editor's part wrote: the new position
    ///     of the first element the later part wrote.
    ///   - lastBefore: the last element this editor's part wrote, if any.
    ///   - firstAfter: the first element the later part wrote, if any.
    mutating func join(_ later: Self, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: Element?, firstAfter: Element?) -> Bool
}

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

/// Writes the elements of one rebuilt leaf straight into the leaves that will hold them:
/// one leaf when they fit, otherwise as many even leaves of at least half capacity as it
/// takes, so that an overflowing leaf is split without copying its elements twice.
///
/// Each leaf's storage is allocated for the elements it receives and one more, not for
/// the leaf capacity. A rebuilt leaf belongs to a new snapshot that the published one is
/// replaced by, so its next change copies it anyway (and a uniquely held leaf grows to
/// the capacity on its first insertion past that). The one more lets the storage of a
/// freed leaf take a copy of a leaf of the same size made to insert a row (see
/// ``_SpareLeafShelf``). Leaves split here hold about half the
/// capacity: after repeated batches of 16,000 changed rows, a million-row list's row
/// leaves were 62 % full and its id leaves 57 %, and with leaves sized to the capacity
/// the process peaked at 623 MB, against 433–485 MB with leaves sized to their rows
/// (and a bulk edit took about a quarter less time, allocating and touching less).
@usableFromInline struct _LeafWriter<Element> {
    /// The leaves filled so far (only when the elements do not fit in one).
    @usableFromInline var filled: [[Element]] = []
    /// The leaf being filled.
    @usableFromInline var current: [Element] = []
    /// The sizes of the leaves when the elements do not fit in one; otherwise empty.
    @usableFromInline let sizes: [Int]
    /// How many elements the current leaf takes before the next one starts.
    @usableFromInline var currentSize: Int
    /// How many of `sizes` are `sizes[0]` (the rest are one smaller).
    @usableFromInline let largeCount: Int
    /// The number of elements appended so far.
    @usableFromInline private(set) var count = 0

    /// A writer for `total` elements in leaves of `capacity`.
    @inlinable init(total: Int, capacity: Int) {
        sizes = total <= capacity ? [] : _CountedBTree<Element>._evenSizes(total: total, target: capacity, capacity: capacity)
        currentSize = sizes.count > 1 ? sizes[0] : .max
        let sizes = sizes
        largeCount = sizes.firstIndex { $0 != sizes[0] } ?? sizes.count
        current.reserveCapacity((sizes.first ?? total) + 1)
    }

    @inlinable mutating func append(_ element: Element) {
        current.append(element)
        count += 1
        if current.count == currentSize { _startNextLeaf() }
    }

    /// Appends `source[range]`, a block per leaf it spans rather than an append per
    /// element.
    @inlinable mutating func append(contentsOf source: [Element], _ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let room = currentSize == .max ? range.upperBound - start : currentSize - current.count
            let end = Swift.min(range.upperBound, start + room)
            current._append(copiesOf: source, start ..< end)
            count += end - start
            start = end
            if current.count == currentSize { _startNextLeaf() }
        }
    }

    @inlinable mutating func _startNextLeaf() {
        filled.append(current)
        current = []
        current.reserveCapacity(filled.count < sizes.count ? sizes[filled.count] + 1 : 0)
        // The last leaf takes whatever is left.
        currentSize = filled.count + 1 < sizes.count ? sizes[filled.count] : .max
    }

    /// The element appended `offset`-th.
    @inlinable subscript(offset: Int) -> Element {
        guard let large = sizes.first, let small = sizes.last else { return current[offset] }
        // `_evenSizes`: the first `largeCount` leaves hold `large`, the rest `small`.
        let leaf: Int, slot: Int
        if offset < largeCount * large {
            (leaf, slot) = offset.quotientAndRemainder(dividingBy: large)
        } else {
            let (rest, remainder) = (offset - largeCount * large).quotientAndRemainder(dividingBy: small)
            (leaf, slot) = (largeCount + rest, remainder)
        }
        return leaf < filled.count ? filled[leaf][slot] : current[slot]
    }

    /// Appends the leaves written to `fragments`, as new fragments.
    @inlinable consuming func finish(into fragments: inout [_CountedBTree<Element>._Fragment]) {
        func append(_ leaf: [Element]) {
            fragments.append(_CountedBTree<Element>._Fragment(node: .init(leaf: leaf), count: leaf.count, first: leaf[0], isNew: true))
        }
        // The leaves filled before the current one (none in the usual case of one leaf,
        // which so allocates no list of leaves).
        for leaf in filled { append(leaf) }
        if !current.isEmpty { append(current) }
    }
}

/// An ordered sequence with positional access, insertion and removal in logarithmic time.
///
/// `_CountedBTree` is a copy-on-write B+-tree in which every node knows how many elements
/// its subtree holds. Elements live only in the leaves, in order; a branch node keeps its
/// children together with their subtree counts, so any position is reached by one descent
/// that subtracts counts on the way down. There are no keys: the order of the elements is
/// the order in which they were placed, and the only search is ``partitioningIndex(where:)``.
///
/// The tree is a value. Copying it copies one reference; a mutation copies only the nodes
/// on the path from the root to the affected leaf that are shared with another copy (or
/// with a live iterator), and mutates in place the nodes that are uniquely referenced. Two
/// snapshots of a large tree that differ by one element therefore share all but
/// O(log *n*) nodes.
///
/// Structure:
///
/// - A leaf holds between `fanout.leaf / 2` and `fanout.leaf` elements; a branch holds
///   between `fanout.branch / 2` and `fanout.branch` children. Only the root may hold fewer:
///   a root leaf holds at least one element and a root branch at least two children.
///   The empty tree has no root at all.
/// - All leaves are at the same depth.
/// - A node's `count` is the number of elements in its subtree, and a branch's
///   `childCounts[i]` equals `children[i].count`.
///
/// By default a leaf's elements span about ``_Tuning/leafBytes`` (up to
/// ``_Tuning/leafMaximumElements`` small elements, never under
/// ``_Tuning/leafMinimumElements``) and a branch holds up to ``_Tuning/branchChildren``
/// children, so a tree of a million small elements has three levels of branches above
/// its leaves. Leaves are large because a change to many rows copies every leaf it
/// touches, and fewer, larger leaves cost less to allocate, reach, link and free per row
/// copied; a one-row change pays for it by copying a larger leaf. Branches are kept small
/// because copying a shared branch retains every child, each in memory of its own. The
/// timings behind both choices are in `Benchmarks/README.md`.
/// Elements are stored in contiguous arrays, and iteration walks the leaves with a
/// stack of branches. The storage of a freed leaf is kept for a later leaf copy, on
/// whatever thread either happens (see ``_SpareLeafShelf``).
///
/// ```swift
/// var tree = _CountedBTree(0 ..< 1_000)      // bulk build in O(n)
/// tree.insert(-1, at: 0)
/// let snapshot = tree                        // O(1)
/// tree.remove(at: 500)                       // copies O(log n) nodes; snapshot is unchanged
/// let i = tree.partitioningIndex { $0 >= 42 }
/// ```
///
/// - Complexity: Copying is O(1); positional access, insertion and removal are
///   O(log *n*); a bulk build is O(*n*); iteration is O(1) amortized per element.
@usableFromInline struct _CountedBTree<Element> {
    /// The root node, or `nil` when the tree is empty.
    @usableFromInline var root: _Node?

    /// The node capacities of this tree.
    @usableFromInline var fanout: _Fanout

    /// Creates an empty tree.
    ///
    /// - Complexity: O(1); no allocation.
    @inlinable init() {
        self.init(fanout: .default)
    }

    /// Creates an empty tree whose nodes use the given capacities.
    ///
    /// Small capacities make every structural case (splits, merges, redistribution,
    /// root growth and collapse) reachable with few elements.
    @inlinable init(fanout: _Fanout) {
        precondition(fanout.leaf >= 4 && fanout.branch >= 4, "Node capacities must be at least 4")
        self.root = nil
        self.fanout = fanout
    }

    /// Creates a tree that holds the elements of `source`, in the same order.
    ///
    /// Leaves are filled to seven eighths of their capacity, so that the first insertions
    /// after a bulk load rarely split a leaf, and evenly, so that every leaf stays above
    /// the minimum fill. The branch levels are then built bottom-up, filled to capacity.
    ///
    /// - Complexity: O(*n*), where *n* is the number of elements in `source`.
    @inlinable init<C: Collection>(_ source: C) where C.Element == Element {
        self.init(source, fanout: .default)
    }

    /// Creates a tree that holds the elements of `source`, in the same order, with nodes
    /// of the given capacities.
    ///
    /// - Complexity: O(*n*), where *n* is the number of elements in `source`.
    @inlinable init<C: Collection>(_ source: C, fanout: _Fanout) where C.Element == Element {
        self.init(fanout: fanout)
        let total = source.count
        guard total > 0 else { return }

        let leafSizes = Self._evenSizes(total: total, target: fanout.leaf - fanout.leaf / 8, capacity: fanout.leaf)
        var level: [_Node] = []
        level.reserveCapacity(leafSizes.count)
        var start = source.startIndex
        for size in leafSizes {
            let end = source.index(start, offsetBy: size)
            var elements: [Element] = []
            elements.reserveCapacity(size + 1)  // as `_LeafWriter` allocates leaves: room to insert one
            elements.append(contentsOf: source[start ..< end])
            level.append(_Node(leaf: elements))
            start = end
        }

        root = Self._stackBranches(on: level, fanout: fanout)
        _checkInvariants()
    }

    /// The root of the branch levels built bottom-up on `leaves`, each filled to capacity.
    ///
    /// - Complexity: O(*n* / *b*) nodes for *n* leaves and branch capacity *b*.
    @inlinable static func _stackBranches(on leaves: [_Node], fanout: _Fanout) -> _Node {
        var level = leaves
        while level.count > 1 {
            var parents: [_Node] = []
            parents.reserveCapacity((level.count + fanout.branch - 1) / fanout.branch)
            var first = 0
            for size in _evenSizes(total: level.count, target: fanout.branch, capacity: fanout.branch) {
                parents.append(_Node(children: Array(level[first ..< first + size])))
                first += size
            }
            level = parents
        }
        return level[0]
    }

    /// The sizes of the groups of one level of a bulk build, which together hold `total`
    /// items: as many groups as it takes to hold at most `target` items each, spread so
    /// that any two sizes differ by at most one.
    ///
    /// Every size is at most `capacity` and, with two groups or more, at least
    /// `capacity / 2`: when groups of at most `target` items would be smaller than that
    /// (a total just above `target`), the groups are filled up to `capacity` instead.
    ///
    /// - Precondition: `capacity / 2 <= target <= capacity` and `total > 0`.
    @inlinable static func _evenSizes(total: Int, target: Int, capacity: Int) -> [Int] {
        var groups = (total + target - 1) / target
        if groups > 1 && total / groups < capacity / 2 {
            groups = (total + capacity - 1) / capacity
        }
        let base = total / groups, extra = total % groups
        return (0 ..< groups).map { $0 < extra ? base + 1 : base }
    }

    /// The number of elements in the tree.
    ///
    /// - Complexity: O(1)
    @inlinable var count: Int { root?.count ?? 0 }

    /// Whether the tree holds no elements.
    ///
    /// - Complexity: O(1)
    @inlinable var isEmpty: Bool { root == nil }

    /// The element at `position`.
    ///
    /// Setting replaces the element in place, copying first the nodes on the path that
    /// are shared with another copy of the tree.
    ///
    /// - Precondition: `0 <= position < count`.
    /// - Complexity: O(log *n*)
    @inlinable subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "_CountedBTree position out of range")
            var node = root.unsafelyUnwrapped
            var offset = position
            while !node.isLeaf {
                node = node.children[node.slot(containing: &offset)]
            }
            return node.elements[offset]
        }
        set {
            precondition(position >= 0 && position < count, "_CountedBTree position out of range")
            _makeRootUnique()
            root.unsafelyUnwrapped.replace(at: position, with: newValue)
            _checkInvariants()
        }
    }

    /// Returns the first position whose element belongs in the second partition, or
    /// `count` if there is none.
    ///
    /// The tree must be partitioned by the predicate: every element for which it returns
    /// `false` comes before every element for which it returns `true`. The search descends
    /// once from the root, binary-searching the first elements of the children of each
    /// branch (kept in the branch itself) and then the elements of one leaf.
    ///
    /// When the tree is not partitioned (an inconsistent predicate), the result is still a
    /// position in `0 ... count`, though not a meaningful one.
    ///
    /// - Complexity: O(log *n*) calls to the predicate.
    @inlinable func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        try _partitioningPoint(where: belongsInSecondPartition).position
    }

    /// The first element that belongs in the second partition, with its position, or
    /// `nil` if there is none; see ``partitioningIndex(where:)``.
    ///
    /// - Complexity: O(log *n*) calls to the predicate; the element is read from the leaf
    ///   the search ends in, without a second descent (except at a leaf's end).
    @inlinable func partitioningElement(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> (position: Int, element: Element)? {
        let point = try _partitioningPoint(where: belongsInSecondPartition)
        guard point.position < count else { return nil }
        guard let leaf = point.leaf, point.slot < leaf.elements.count else {
            return (point.position, self[point.position])  // the first element of the next leaf
        }
        return (point.position, leaf.elements[point.slot])
    }

    /// The search of ``partitioningIndex(where:)``: the position found, and the leaf and
    /// slot in that leaf where the search ended (`nil` when the tree is empty or the
    /// position is 0 found at a branch).
    @inlinable func _partitioningPoint(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> (position: Int, leaf: _Node?, slot: Int) {
        guard var node = root else { return (0, nil, 0) }
        var offset = 0
        // Once we descend into a child, its first element is known to be in the first
        // partition, so the searches below start past it.
        var low = 0
        while !node.isLeaf {
            low = try Self._partitioningIndex(of: node.childFirsts, from: low, where: belongsInSecondPartition)
            // Every child before `low` starts in the first partition; the boundary lies
            // inside child `low - 1` or at its end.
            if low == 0 { return (offset, nil, 0) }
            for slot in 0 ..< low - 1 { offset += node.childCounts[slot] }
            node = node.children[low - 1]
            low = 1
        }
        low = try Self._partitioningIndex(of: node.elements, from: low, where: belongsInSecondPartition)
        return (offset + low, node, low)
    }

    /// The first index from `low` on whose element belongs in the second partition, or
    /// `elements.count`: a binary search of one node's array.
    @inlinable static func _partitioningIndex(of elements: [Element], from low: Int, where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        try _partitioningIndex(of: elements, in: low ..< elements.count, where: belongsInSecondPartition)
    }

    /// The first index in `range` whose element belongs in the second partition, or
    /// `range.upperBound`.
    @inlinable static func _partitioningIndex(of elements: [Element], in range: Range<Int>, where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if try belongsInSecondPartition(elements[middle]) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// Makes `root` uniquely referenced, copying the root node if it is shared.
    @inlinable mutating func _makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) {
            root = _Node(copying: root.unsafelyUnwrapped)
        }
    }

    /// Checks every structural invariant of the tree and stops the program if one fails.
    ///
    /// Compiled only with `-DLIST_INTERNAL_CHECKS`; otherwise it does nothing.
    ///
    /// - Complexity: O(number of nodes) with checks on, O(1) otherwise.
    @inlinable func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        precondition(fanout.leaf >= 4 && fanout.branch >= 4, "Node capacities must be at least 4")
        guard let root else { return }
        if root.isLeaf {
            precondition(!root.elements.isEmpty, "A root leaf must not be empty")
        } else {
            precondition(root.children.count >= 2, "A root branch must have at least two children")
        }
        var leafDepth: Int? = nil
        root._checkInvariants(depth: 0, isRoot: true, fanout: fanout, leafDepth: &leafDepth)
        #endif
    }
}

extension _CountedBTree {
    /// The capacities of the nodes of a tree.
    @usableFromInline struct _Fanout: Hashable, Sendable {
        /// The most elements a leaf holds; the fewest a non-root leaf holds is half of it.
        @usableFromInline var leaf: Int
        /// The most children a branch holds; the fewest a non-root branch holds is half of it.
        @usableFromInline var branch: Int

        @inlinable init(leaf: Int, branch: Int) {
            self.leaf = leaf
            self.branch = branch
        }

        /// Capacities sized so that a leaf's elements span about ``_Tuning/leafBytes``,
        /// within ``_Tuning/leafMinimumElements`` and ``_Tuning/leafMaximumElements``.
        @inlinable static var `default`: _Fanout {
            let stride = Swift.max(1, MemoryLayout<Element>.stride)
            let leaf = Swift.min(_Tuning.leafMaximumElements, Swift.max(_Tuning.leafMinimumElements, _Tuning.leafBytes / stride))
            return _Fanout(leaf: leaf, branch: _Tuning.branchChildren)
        }
    }
}

extension _CountedBTree {
    /// A node of the tree: a leaf that holds elements, or a branch that holds children.
    ///
    /// A node is mutated only through a reference that is known to be unique (see
    /// ``_CountedBTree/_makeRootUnique()`` and ``uniqueChild(at:)``). A node reachable from
    /// more than one tree value or iterator is never mutated; it is copied first.
    ///
    /// Its stored properties are not checked for exclusive access at run time
    /// (`@exclusivity(unchecked)`): a node is written only through a unique reference, on
    /// one thread, by code that never holds an access to one of its properties across a
    /// call that could reach the same property, and the checks (a thread-local lookup for
    /// every read and write of a property) cost more than copying a small leaf.
    @usableFromInline final class _Node {
        /// The number of elements in this subtree.
        @exclusivity(unchecked) @usableFromInline var count: Int
        /// The elements of a leaf, in order; empty in a branch.
        @exclusivity(unchecked) @usableFromInline var elements: [Element]
        /// The children of a branch, in order; empty in a leaf.
        @exclusivity(unchecked) @usableFromInline var children: [_Node]
        /// `childCounts[i] == children[i].count`, kept here so that a descent scans one
        /// contiguous array instead of touching every child.
        @exclusivity(unchecked) @usableFromInline var childCounts: [Int]
        /// `childFirsts[i]` is the first element of `children[i]`'s subtree, kept here so
        /// that a search binary-searches one contiguous array per level instead of
        /// descending to a leaf for every probe.
        @exclusivity(unchecked) @usableFromInline var childFirsts: [Element]
        /// Whether this node is a leaf. Fixed for the lifetime of the node.
        @usableFromInline let isLeaf: Bool
        /// Destroys the elements of an array of this node's: the node's
        /// ``_free(_:mayKeepStorage:)`` as compiled where the node was made.
        ///
        /// A node's `deinit` runs in the node's generic code, where each element would be
        /// destroyed through its type's value witnesses (an indirect call per element and
        /// per generic field), and where every use of another generic type, such as the
        /// spare-leaf shelf, looks up its metadata at run time. Nodes are made in code
        /// compiled for the element type (the engine is `@inlinable`), so the function
        /// kept here does all of it directly, at a fraction of the cost, when the node is
        /// freed (on a renderer's queue, for the nodes a batch replaced).
        @usableFromInline let _freeing: (inout [Element], _ mayKeepStorage: Bool) -> Void

        /// Creates a leaf that holds `elements`.
        @inlinable init(leaf elements: [Element]) {
            self.count = elements.count
            self.elements = elements
            self.children = []
            self.childCounts = []
            self.childFirsts = []
            self.isLeaf = true
            self._freeing = Self._free
        }

        /// Creates a branch whose children are `children`.
        @inlinable init(children: [_Node]) {
            var childCounts: [Int] = [], childFirsts: [Element] = []
            childCounts.reserveCapacity(children.count)
            childFirsts.reserveCapacity(children.count)
            for child in children {
                childCounts.append(child.count)
                childFirsts.append(child.first)
            }
            self.count = childCounts.reduce(0, +)
            self.elements = []
            self.children = children
            self.childCounts = childCounts
            self.childFirsts = childFirsts
            self.isLeaf = false
            self._freeing = Self._free
        }

        /// Creates a branch from children whose counts and first elements are already known.
        @inlinable init(children: [_Node], childCounts: [Int], childFirsts: [Element], count: Int) {
            self.count = count
            self.elements = []
            self.children = children
            self.childCounts = childCounts
            self.childFirsts = childFirsts
            self.isLeaf = false
            self._freeing = Self._free
        }

        /// Creates a copy of `node` that is about to be mutated; the children are shared.
        ///
        /// The arrays are copied at once, with the capacity of the originals: left to
        /// copy-on-write, the first insertion would copy an array to its exact size and
        /// then grow it, copying it twice and doubling its storage. A leaf's elements get
        /// room for at least one more, since the copy may be made to insert, and are
        /// copied into the storage of a freed leaf when there is some (``_copyLeaf(_:)``).
        @inlinable init(copying node: _Node) {
            self.count = node.count
            self.elements = node.isLeaf ? Self._copyLeaf(node.elements) : []
            self.children = Self._copy(node.children)
            self.childCounts = Self._copy(node.childCounts)
            self.childFirsts = Self._copy(node.childFirsts)
            self.isLeaf = node.isLeaf
            self._freeing = Self._free
        }

        /// Destroys the node's elements with ``_freeing``, which hands a leaf's storage to
        /// the spare storage of its element type, for a later leaf copy to reuse (see
        /// ``_SpareLeafShelf``).
        @inlinable deinit {
            if isLeaf {
                _freeing(&elements, true)
            } else {
                _freeing(&childFirsts, false)
            }
        }

        /// A unique copy of a leaf's elements with room for at least one more.
        ///
        /// A leaf of at least half the default capacity is copied into the storage of a
        /// freed leaf when its element type's shelf has one large enough (see
        /// ``_SpareLeafShelf``); otherwise into new storage of the original's capacity
        /// (and one more if it was full). A small root leaf is copied to its size, so
        /// that the snapshots of a short list stay small.
        @inlinable static func _copyLeaf(_ elements: [Element]) -> [Element] {
            let needed = elements.count + 1
            if _SpareLeafShelf<Element>.isWorthKeeping(capacity: needed),
               var copy = _SpareLeafStorage.shelf(of: Element.self).take(minimumCapacity: needed) {
                copy._append(copiesOf: elements, elements.indices)
                return copy
            }
            // Reserved and appended to in code compiled for `Element`: a bulk copy would go
            // through the runtime's value witnesses, and `init(unsafeUninitializedCapacity:)`
            // allocates in generic code that looks up the storage's type on every call.
            return _copy(elements, room: 1)
        }

        /// Destroys the elements of a freed node's array: a leaf's storage of a leaf's size
        /// goes to the shelf of spare storage, emptied; any other array is emptied and
        /// left to be freed. Kept by every node as ``_freeing``, compiled for `Element`
        /// where the node is made.
        ///
        /// - Parameters:
        ///   - buffer: the node's elements (a leaf) or first elements (a branch).
        ///   - mayKeepStorage: whether the storage may go to the shelf (a leaf's).
        @inlinable static func _free(_ buffer: inout [Element], mayKeepStorage: Bool) {
            if mayKeepStorage && _SpareLeafShelf<Element>.isWorthKeeping(capacity: buffer.capacity) {
                _SpareLeafStorage.shelf(of: Element.self).keep(&buffer, emptying: _emptyKeepingStorage)
            } else {
                _emptyKeepingStorage(&buffer)
            }
        }

        /// Destroys the elements of `buffer` one by one, from the last, keeping its
        /// storage.
        @inlinable static func _emptyKeepingStorage(_ buffer: inout [Element]) {
            for _ in 0 ..< buffer.count { _ = buffer.removeLast() }
        }

        /// A unique copy of `array` with at least its capacity, and room for at least
        /// `room` more elements (empty arrays stay shared).
        @inlinable static func _copy<Value>(_ array: [Value], room: Int = 0) -> [Value] {
            guard !array.isEmpty else { return [] }
            var copy: [Value] = []
            copy.reserveCapacity(Swift.max(array.capacity, array.count + room))
            copy._append(copiesOf: array, array.indices)
            return copy
        }

        /// The number of elements (leaf) or children (branch) held directly by this node.
        @inlinable var width: Int { isLeaf ? elements.count : children.count }

        /// The first element of this subtree.
        ///
        /// - Precondition: the subtree is not empty.
        /// - Complexity: O(1).
        @inlinable var first: Element {
            isLeaf ? elements[0] : childFirsts[0]
        }

        /// Stores the current first element of the child at `slot` in ``childFirsts``,
        /// after a change that may have replaced it.
        @inlinable func refreshFirst(at slot: Int) {
            childFirsts[slot] = children[slot].first
        }

        /// Returns the child that holds position `offset` of this branch's subtree, and turns
        /// `offset` into a position within that child.
        ///
        /// - Precondition: `0 <= offset < count`.
        @inlinable func slot(containing offset: inout Int) -> Int {
            var slot = 0
            while offset >= childCounts[slot] {
                offset -= childCounts[slot]
                slot += 1
            }
            return slot
        }

        /// Returns the child into which an element inserted at position `offset` of this
        /// branch's subtree goes, and turns `offset` into a position within that child.
        /// A position between two children goes to the end of the left one.
        ///
        /// - Precondition: `0 <= offset <= count`.
        @inlinable func slot(forInsertionAt offset: inout Int) -> Int {
            var slot = 0
            while offset > childCounts[slot] {
                offset -= childCounts[slot]
                slot += 1
            }
            return slot
        }

        /// Returns the child at `slot`, first replacing it by a copy if it is shared.
        ///
        /// - Precondition: this node is itself uniquely referenced (or a fresh copy).
        @inlinable func uniqueChild(at slot: Int) -> _Node {
            if !isKnownUniquelyReferenced(&children[slot]) {
                children[slot] = _Node(copying: children[slot])
            }
            return children[slot]
        }

        #if LIST_INTERNAL_CHECKS
        /// Checks the invariants of this subtree; see ``_CountedBTree/_checkInvariants()``.
        @inlinable func _checkInvariants(depth: Int, isRoot: Bool, fanout: _Fanout, leafDepth: inout Int?) {
            if isLeaf {
                precondition(children.isEmpty && childCounts.isEmpty && childFirsts.isEmpty, "A leaf must not have children")
                precondition(count == elements.count, "A leaf's count must equal its number of elements")
                precondition(elements.count <= fanout.leaf, "A leaf must not exceed its capacity")
                precondition(isRoot || elements.count >= fanout.leaf / 2, "A non-root leaf must be at least half full")
                if let leafDepth {
                    precondition(leafDepth == depth, "All leaves must be at the same depth")
                } else {
                    leafDepth = depth
                }
                return
            }
            precondition(elements.isEmpty, "A branch must not hold elements")
            precondition(children.count == childCounts.count, "A branch must have one count per child")
            precondition(children.count == childFirsts.count, "A branch must have one first element per child")
            precondition(children.count <= fanout.branch, "A branch must not exceed its capacity")
            precondition(isRoot || children.count >= fanout.branch / 2, "A non-root branch must be at least half full")
            var total = 0
            for slot in 0 ..< children.count {
                let child = children[slot]
                precondition(child.count == childCounts[slot], "A branch's child count must match the child")
                precondition(_isSameValue(childFirsts[slot], child.first) != false, "A branch's first element of a child must match the child")
                child._checkInvariants(depth: depth + 1, isRoot: false, fanout: fanout, leafDepth: &leafDepth)
                total += childCounts[slot]
            }
            precondition(count == total, "A branch's count must be the sum of its children's counts")
        }
        #endif
    }
}

#if LIST_INTERNAL_CHECKS
/// Whether two values are equal, or `nil` when their type is not `Equatable`: lets the
/// invariant checks of an unconstrained generic tree compare elements when they can.
@inlinable func _isSameValue<Value>(_ lhs: Value, _ rhs: Value) -> Bool? {
    guard let lhs = lhs as? any Equatable else { return nil }
    return lhs._isEqual(toAny: rhs)
}

extension Equatable {
    @inlinable func _isEqual(toAny other: Any) -> Bool {
        (other as? Self) == self
    }
}
#endif

// Nodes are mutated only through references proven unique by `isKnownUniquelyReferenced`
// (the tree's root, or a child slot of a node that is itself unique). A node that is
// reachable from two tree values, from an iterator, or from any other thread is by
// definition not uniquely referenced, so it is never mutated again: it is copied before
// any change. Shared nodes are therefore immutable, and passing them between threads is
// as safe as passing the `Element` values they contain. A node's `_emptying` is a `let`
// holding a static function, which captures nothing.
extension _CountedBTree._Node: @unchecked Sendable where Element: Sendable {}

extension _CountedBTree: Sendable where Element: Sendable {}

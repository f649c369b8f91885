extension _CountedBTree {
    /// The elements in order, as an array.
    ///
    /// Copies a leaf's elements at a time rather than one element at a time through an
    /// iterator, which in unspecialized generic code costs a witness call per element.
    ///
    /// - Complexity: O(*n*).
    @inlinable var _array: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        func append(_ node: _Node) {
            if node.isLeaf {
                result._append(copiesOf: node.elements, node.elements.indices)
            } else {
                for child in node.children { append(child) }
            }
        }
        if let root { append(root) }
        return result
    }
}

extension _CountedBTree {
    /// Creates a tree of `count` elements, the element at position *i* being
    /// `element(i)`, with full leaves.
    ///
    /// Builds the leaves straight from the generator, so a tree can be made from items
    /// in a computed order without first gathering them into an array of the same size.
    /// Leaves are filled to capacity rather than to seven eighths as in
    /// ``init(_:fanout:)``: the rows of a list are shared with the snapshots renderers
    /// hold, so the first change to a leaf copies it anyway, and a full leaf costs no
    /// more to split than to copy, while the list takes an eighth less memory.
    ///
    /// - Complexity: O(*n*) calls to `element`.
    @inlinable init(count total: Int, fanout: _Fanout = .default, element: (Int) -> Element) {
        self.init(fanout: fanout)
        guard total > 0 else { return }
        let sizes = Self._evenSizes(total: total, target: fanout.leaf, capacity: fanout.leaf)
        root = Self._stackBranches(on: Self._leaves(sized: sizes[...], from: 0, element: element), fanout: fanout)
        _checkInvariants()
    }

    /// Leaves of the given sizes, holding `element(first)`, `element(first + 1)`, … in order.
    ///
    /// - Complexity: O(*n*) calls to `element` for *n* elements in all.
    @inlinable static func _leaves(sized sizes: ArraySlice<Int>, from first: Int, element: (Int) -> Element) -> [_Node] {
        var leaves: [_Node] = []
        leaves.reserveCapacity(sizes.count)
        var next = first
        for size in sizes {
            var elements: [Element] = []
            elements.reserveCapacity(size + 1)  // as `_LeafWriter` allocates leaves: room to insert one
            for position in next ..< next + size { elements.append(element(position)) }
            leaves.append(_Node(leaf: elements))
            next += size
        }
        return leaves
    }
}

extension _CountedBTree where Element: Sendable {
    /// Creates the tree ``init(count:fanout:element:)`` creates, the leaves of its earlier
    /// and later halves built on two threads: those on which bulk edits copy them.
    ///
    /// A bulk edit cuts its pass near its middle edit (near the middle of the tree for
    /// edits spread evenly over it) and copies the earlier part's leaves on one of the
    /// ``_BulkThreads`` and the later part's on another.
    /// With an allocator that returns a freed block to the arena of the thread that
    /// allocated it (glibc), a leaf built on the thread that later copies it gives its
    /// storage back where that thread's next copies come from; built on one thread, the
    /// later half's storage would serve no copy, and a list of a million rows changed in
    /// bulk would hold about a third of its size more at its peak.
    ///
    /// - Complexity: O(*n*) calls to `element`, on two threads.
    /// - Parameter concurrently: whether to build on two threads; `false` builds as
    ///   ``init(count:fanout:element:)`` does, on the calling thread.
    @inlinable init(count total: Int, fanout: _Fanout = .default, concurrently: Bool, element: @Sendable (Int) -> Element) {
        guard concurrently, total > 0 else {
            self.init(count: total, fanout: fanout, element: element)
            return
        }
        let sizes = Self._evenSizes(total: total, target: fanout.leaf, capacity: fanout.leaf)
        guard sizes.count >= 2 else {
            self.init(count: total, fanout: fanout, element: element)
            return
        }
        self.init(fanout: fanout)
        let cut = sizes.count / 2
        let laterFirst = sizes[..<cut].reduce(0, +)
        let leaves = _joinedConcurrently(
            { Self._leaves(sized: sizes[..<cut], from: 0, element: element) },
            { Self._leaves(sized: sizes[cut...], from: laterFirst, element: element) }
        )
        root = Self._stackBranches(on: leaves, fanout: fanout)
        _checkInvariants()
    }
}

extension Array {
    /// Appends `source[range]`.
    ///
    /// `append(contentsOf:)` with an array or a slice copies through the element type's
    /// value witnesses, one indirect call per element (and per generic field of it);
    /// this copies in code specialized for `Element`, several times faster for a
    /// generic struct such as `DataSourceItem<Int>`.
    ///
    /// - Complexity: O(`range.count`).
    @inlinable mutating func _append(copiesOf source: [Element], _ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= source.count, "Range out of bounds")
        if _isPOD(Element.self) {
            append(contentsOf: source[range])  // a block copy
        } else {
            append(contentsOf: _ElementCopies(source: source, position: range.lowerBound, end: range.upperBound))
        }
    }
}

/// The elements of an array range, one by one: appended to an array, they are copied by
/// the specialized default `_copyContents`, not by the runtime's witness-driven copy.
@usableFromInline struct _ElementCopies<Element>: Sequence, IteratorProtocol {
    @usableFromInline let source: [Element]
    @usableFromInline var position: Int
    @usableFromInline let end: Int

    @inlinable init(source: [Element], position: Int, end: Int) {
        self.source = source
        self.position = position
        self.end = end
    }

    @inlinable var underestimatedCount: Int { end - position }

    @inlinable mutating func next() -> Element? {
        guard position < end else { return nil }
        defer { position += 1 }
        return source[position]
    }

    /// Copies as many of the elements as fit into `target`, in one loop over the two
    /// buffers: the default walks the iterator, wrapping every element in an `Optional`.
    @inlinable func _copyContents(initializing target: UnsafeMutableBufferPointer<Element>) -> (Self, Int) {
        let copied = Swift.min(end - position, target.count)
        guard copied > 0, let to = target.baseAddress else { return (self, 0) }
        let first = position
        source.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress.map({ $0 + first }) else { return }
            for offset in 0 ..< copied { (to + offset).initialize(to: from[offset]) }
        }
        var rest = self
        rest.position += copied
        return (rest, copied)
    }
}

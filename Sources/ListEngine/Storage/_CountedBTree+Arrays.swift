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
        var level: [_Node] = []
        var next = 0
        for size in Self._evenSizes(total: total, target: fanout.leaf, capacity: fanout.leaf) {
            var elements: [Element] = []
            elements.reserveCapacity(size + 1)  // as `_LeafWriter` allocates leaves: room to insert one
            for position in next ..< next + size { elements.append(element(position)) }
            level.append(_Node(leaf: elements))
            next += size
        }
        root = Self._stackBranches(on: level, fanout: fanout)
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

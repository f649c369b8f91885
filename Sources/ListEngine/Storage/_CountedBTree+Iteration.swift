extension _CountedBTree {
    /// An iterator over the elements of a tree, in order.
    ///
    /// The iterator walks the leaves left to right. It keeps the path of branches above the
    /// current leaf, so moving to the next leaf climbs only as far as needed. It holds
    /// strong references to the nodes it visits: it iterates the snapshot it was made from,
    /// whatever happens to the tree afterwards (a mutation of the tree then copies the
    /// shared path instead of changing the nodes under the iterator).
    ///
    /// - Complexity: O(1) amortized per element.
    @usableFromInline struct Iterator: IteratorProtocol {
        /// The branches above the current leaf, root first, each with the slot of the
        /// child being visited.
        @usableFromInline var path: [(node: _Node, slot: Int)]
        /// The elements of the current leaf.
        @usableFromInline var leaf: [Element]
        /// The position of the next element in `leaf`.
        @usableFromInline var index: Int

        /// Creates an iterator positioned at `position` of the subtree of `root`.
        ///
        /// - Precondition: `0 <= position <= root.count`.
        @inlinable init(root: _Node?, position: Int) {
            path = []
            leaf = []
            index = 0
            guard var node = root, position < node.count else { return }
            var offset = position
            while !node.isLeaf {
                let slot = node.slot(containing: &offset)
                path.append((node, slot))
                node = node.children[slot]
            }
            leaf = node.elements
            index = offset
        }

        /// Returns the next element, or `nil` at the end.
        ///
        /// - Complexity: O(1) amortized.
        @inlinable mutating func next() -> Element? {
            if index < leaf.count {
                defer { index += 1 }
                return leaf[index]
            }
            return nextLeaf()
        }

        /// Whether the iterator has passed the last element.
        ///
        /// With ``_skip()``, this lets a walk read the current element in place,
        /// `leaf[index]`, instead of copying it out with ``Iterator/next()``.
        ///
        /// - Complexity: O(1).
        @inlinable var _isAtEnd: Bool { index >= leaf.count }

        /// Moves past the current element without reading it.
        ///
        /// - Precondition: `!_isAtEnd`.
        /// - Complexity: O(1) amortized.
        @inlinable mutating func _skip() {
            index += 1
            if index == leaf.count, nextLeaf() != nil { index = 0 }
        }

        /// Moves to the first element of the next leaf and returns it, or returns `nil`
        /// when there is no next leaf.
        @inlinable mutating func nextLeaf() -> Element? {
            while let (node, slot) = path.popLast() {
                guard slot + 1 < node.children.count else { continue }
                path.append((node, slot + 1))
                var child = node.children[slot + 1]
                while !child.isLeaf {
                    path.append((child, 0))
                    child = child.children[0]
                }
                leaf = child.elements
                index = 1
                return leaf[0]
            }
            leaf = []
            index = 0
            return nil
        }
    }

    /// Returns an iterator over the elements from `position` to the end, in order.
    ///
    /// - Precondition: `0 <= position <= count`.
    /// - Complexity: O(log *n*) to start, then O(1) amortized per element.
    @inlinable func elements(from position: Int) -> Iterator {
        precondition(position >= 0 && position <= count, "_CountedBTree position out of range")
        return Iterator(root: root, position: position)
    }
}

extension _CountedBTree {
    /// The position of the first element that satisfies `predicate`, or `nil` when
    /// none does: a scan that reads each element in its leaf.
    ///
    /// - Complexity: O(*p*) calls of `predicate` for the *p* elements up to the one
    ///   found (all *n* when none is).
    @inlinable func firstPosition(where predicate: (Element) throws -> Bool) rethrows -> Int? {
        if let root, root.isLeaf {
            // A short list's rows, all in one array.
            return try root.elements.withUnsafeBufferPointer { elements in
                for position in elements.indices where try predicate(elements[position]) { return position }
                return nil
            }
        }
        var cursor = makeIterator()
        var position = 0
        while !cursor._isAtEnd {
            if try predicate(cursor.leaf[cursor.index]) { return position }
            position += 1
            cursor._skip()
        }
        return nil
    }
}

extension _CountedBTree: Sequence {
    /// Returns an iterator over all the elements, in order.
    ///
    /// - Complexity: O(log *n*) to start, then O(1) amortized per element.
    @inlinable func makeIterator() -> Iterator {
        Iterator(root: root, position: 0)
    }

    /// The number of elements; exact.
    ///
    /// - Complexity: O(1)
    @inlinable var underestimatedCount: Int { count }
}

extension _CountedBTree.Iterator: Sendable where Element: Sendable {}

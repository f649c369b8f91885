extension _CountedBTree {
    /// Inserts `element` at `position`, moving the elements at and after it one place up.
    ///
    /// A full leaf on the way is split in two halves, and a branch that overflows as a
    /// result is split in turn; when the root splits, the tree grows one level.
    ///
    /// - Precondition: `0 <= position <= count`.
    /// - Complexity: O(log *n*)
    @inlinable mutating func insert(_ element: Element, at position: Int) {
        precondition(position >= 0 && position <= count, "_CountedBTree insertion position out of range")
        guard root != nil else {
            root = _Node(leaf: [element])
            _checkInvariants()
            return
        }
        _makeRootUnique()
        let node = root.unsafelyUnwrapped
        if let sibling = node.insert(element, at: position, fanout: fanout) {
            root = _Node(children: [node, sibling])
        }
        _checkInvariants()
    }

    /// Removes and returns the element at `position`, moving the elements after it one
    /// place down.
    ///
    /// A node that falls under half full takes elements or children from a sibling, or is
    /// merged with it; when the root branch is left with one child, the tree shrinks one
    /// level.
    ///
    /// - Precondition: `0 <= position < count`.
    /// - Complexity: O(log *n*)
    @discardableResult
    @inlinable mutating func remove(at position: Int) -> Element {
        precondition(position >= 0 && position < count, "_CountedBTree removal position out of range")
        _makeRootUnique()
        let node = root.unsafelyUnwrapped
        let removed = node.remove(at: position, fanout: fanout)
        if node.isLeaf {
            if node.elements.isEmpty { root = nil }
        } else if node.children.count == 1 {
            root = node.children[0]
        }
        _checkInvariants()
        return removed
    }

    /// Removes every element.
    ///
    /// - Complexity: O(1), plus the release of the nodes no other copy shares.
    @inlinable mutating func removeAll() {
        root = nil
        _checkInvariants()
    }
}

extension _CountedBTree._Node {
    /// Replaces the element at `position` of this subtree.
    ///
    /// - Precondition: this node is uniquely referenced and `0 <= position < count`.
    @inlinable func replace(at position: Int, with element: Element) {
        if isLeaf {
            elements[position] = element
            return
        }
        var offset = position
        let slot = slot(containing: &offset)
        uniqueChild(at: slot).replace(at: offset, with: element)
        if offset == 0 { childFirsts[slot] = element }
    }

    /// Inserts `element` at `position` of this subtree.
    ///
    /// - Returns: The new right sibling of this node when it had to be split, or `nil`.
    /// - Precondition: this node is uniquely referenced and `0 <= position <= count`.
    @inlinable func insert(_ element: Element, at position: Int, fanout: _CountedBTree._Fanout) -> _CountedBTree._Node? {
        if isLeaf {
            return insertIntoLeaf(element, at: position, capacity: fanout.leaf)
        }
        var offset = position
        let slot = slot(forInsertionAt: &offset)
        let child = uniqueChild(at: slot)
        count += 1
        let sibling = child.insert(element, at: offset, fanout: fanout)
        if offset == 0 { childFirsts[slot] = element }
        guard let sibling else {
            childCounts[slot] += 1
            return nil
        }
        childCounts[slot] = child.count
        children.insert(sibling, at: slot + 1)
        childCounts.insert(sibling.count, at: slot + 1)
        childFirsts.insert(sibling.first, at: slot + 1)
        guard children.count > fanout.branch else { return nil }

        let half = children.count / 2
        var rightChildren: [_CountedBTree._Node] = []
        rightChildren.reserveCapacity(fanout.branch)
        rightChildren._append(copiesOf: children, half ..< children.count)
        var rightCounts: [Int] = []
        rightCounts.reserveCapacity(fanout.branch)
        rightCounts._append(copiesOf: childCounts, half ..< childCounts.count)
        var rightFirsts: [Element] = []
        rightFirsts.reserveCapacity(fanout.branch)
        rightFirsts._append(copiesOf: childFirsts, half ..< childFirsts.count)
        let rightCount = rightCounts.reduce(0, +)
        children.removeSubrange(half...)
        childCounts.removeSubrange(half...)
        childFirsts.removeSubrange(half...)
        count -= rightCount
        return _CountedBTree._Node(children: rightChildren, childCounts: rightCounts, childFirsts: rightFirsts, count: rightCount)
    }

    /// Inserts `element` at `position` of this leaf, splitting a full leaf first so that
    /// its storage never grows past `capacity`.
    @inlinable func insertIntoLeaf(_ element: Element, at position: Int, capacity: Int) -> _CountedBTree._Node? {
        guard elements.count >= capacity else {
            // Leaves are allocated for the elements they hold (see `_LeafWriter`): grow
            // one to the capacity at once rather than by doubling past it.
            if elements.count == elements.capacity { elements.reserveCapacity(capacity) }
            elements.insert(element, at: position)
            count += 1
            return nil
        }
        let half = elements.count / 2
        var right: [Element] = []
        right.reserveCapacity(capacity)
        right._append(copiesOf: elements, half ..< elements.count)
        elements.removeSubrange(half...)
        if position <= half {
            elements.insert(element, at: position)
        } else {
            right.insert(element, at: position - half)
        }
        count = elements.count
        return _CountedBTree._Node(leaf: right)
    }

    /// Removes and returns the element at `position` of this subtree, rebalancing the
    /// child it came from if that child fell under half full. This node itself may be left
    /// under half full; its parent rebalances it.
    ///
    /// - Precondition: this node is uniquely referenced and `0 <= position < count`.
    @inlinable func remove(at position: Int, fanout: _CountedBTree._Fanout) -> Element {
        count -= 1
        if isLeaf {
            return elements.remove(at: position)
        }
        var offset = position
        let slot = slot(containing: &offset)
        let child = uniqueChild(at: slot)
        let removed = child.remove(at: offset, fanout: fanout)
        childCounts[slot] -= 1
        // A non-root child keeps at least one item, so it still has a first element.
        if offset == 0 { refreshFirst(at: slot) }
        let capacity = child.isLeaf ? fanout.leaf : fanout.branch
        if child.width < capacity / 2 {
            rebalanceChild(at: slot, capacity: capacity)
        }
        return removed
    }

    /// Restores the minimum fill of the child at `slot`, which holds one item too few, by
    /// merging it with a neighbour when both fit in one node, or else by spreading the
    /// items of both evenly.
    ///
    /// - Precondition: this node is uniquely referenced and has at least two children.
    @inlinable func rebalanceChild(at slot: Int, capacity: Int) {
        let leftSlot = slot > 0 ? slot - 1 : slot
        let rightSlot = leftSlot + 1
        let left = uniqueChild(at: leftSlot)
        let total = left.width + children[rightSlot].width
        if total <= capacity {
            // The right node is only read, so it need not be copied even if shared.
            left.append(contentsOf: children[rightSlot])
            children.remove(at: rightSlot)
            childCounts.remove(at: rightSlot)
            childFirsts.remove(at: rightSlot)
            childCounts[leftSlot] = left.count
            return
        }
        let right = uniqueChild(at: rightSlot)
        let leftTarget = total / 2
        if left.width > leftTarget {
            left.moveSuffix(left.width - leftTarget, toFrontOf: right)
        } else {
            right.movePrefix(leftTarget - left.width, toEndOf: left)
        }
        childCounts[leftSlot] = left.count
        childCounts[rightSlot] = right.count
        // Items moved across the boundary: only the right node's first element changed.
        refreshFirst(at: rightSlot)
    }

    /// Appends the items of `other`, a node at the same level, to this node.
    @inlinable func append(contentsOf other: _CountedBTree._Node) {
        if isLeaf {
            elements._append(copiesOf: other.elements, other.elements.indices)
        } else {
            children._append(copiesOf: other.children, other.children.indices)
            childCounts._append(copiesOf: other.childCounts, other.childCounts.indices)
            childFirsts._append(copiesOf: other.childFirsts, other.childFirsts.indices)
        }
        count += other.count
    }

    /// Moves the last `k` items of this node to the front of `other`, its right neighbour.
    @inlinable func moveSuffix(_ k: Int, toFrontOf other: _CountedBTree._Node) {
        let moved: Int
        if isLeaf {
            other.elements.insert(contentsOf: elements[(elements.count - k)...], at: 0)
            elements.removeLast(k)
            moved = k
        } else {
            let start = children.count - k
            other.children.insert(contentsOf: children[start...], at: 0)
            other.childCounts.insert(contentsOf: childCounts[start...], at: 0)
            other.childFirsts.insert(contentsOf: childFirsts[start...], at: 0)
            moved = childCounts[start...].reduce(0, +)
            children.removeLast(k)
            childCounts.removeLast(k)
            childFirsts.removeLast(k)
        }
        count -= moved
        other.count += moved
    }

    /// Moves the first `k` items of this node to the end of `other`, its left neighbour.
    @inlinable func movePrefix(_ k: Int, toEndOf other: _CountedBTree._Node) {
        let moved: Int
        if isLeaf {
            other.elements._append(copiesOf: elements, 0 ..< k)
            elements.removeFirst(k)
            moved = k
        } else {
            other.children._append(copiesOf: children, 0 ..< k)
            other.childCounts._append(copiesOf: childCounts, 0 ..< k)
            other.childFirsts._append(copiesOf: childFirsts, 0 ..< k)
            moved = childCounts[..<k].reduce(0, +)
            children.removeFirst(k)
            childCounts.removeFirst(k)
            childFirsts.removeFirst(k)
        }
        count -= moved
        other.count += moved
    }
}

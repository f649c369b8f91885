/// Reusing a freed root leaf for the next copy of a short list's root.
///
/// A list short enough to fit in one leaf copies that leaf for every change, since the
/// published snapshot shares it, and frees the copy of the version before once its
/// batch is rendered: an allocation and a free the size of the list per change. The
/// engine keeps the root leaf of the snapshot a batch replaced instead, and when that
/// leaf is no longer held anywhere else by the next change, brings it up to the current
/// root: by making the one-row change that made that root again, when it is known, or
/// else by copying the current root into it without writing the elements that are
/// already there. Either way without allocating.
extension _CountedBTree {
    /// Makes a shared root leaf unique for a mutation by copying it into `spare`, when
    /// `spare` is a leaf that nothing else holds with room for one more element; else
    /// leaves the root as it is, for the mutation to copy. `spare` is `nil` afterwards
    /// either way.
    ///
    /// When `edit` is the one-row change that took `spare`'s version to the current root,
    /// and that root is still its `after`, the spare takes the same change instead: one
    /// row out, one row in, and the rows after them moved in memory, without reading the
    /// others.
    ///
    /// - Complexity: O(*n*) for a root leaf of *n* elements: with `edit`, two moves of
    ///   memory; without, one comparison of bits per element, and a copy of each that
    ///   differs.
    /// - Parameters:
    ///   - spare: the leaf to reuse.
    ///   - edit: the change from `spare`'s rows to the current root's, if known.
    @inlinable mutating func _makeRootUnique(reusing spare: inout _Node?, replaying edit: _RootLeafEdit? = nil) {
        guard var node = spare else { return }
        spare = nil
        guard !isKnownUniquelyReferenced(&root), isKnownUniquelyReferenced(&node), node.isLeaf,
              let current = root, current.isLeaf, node.elements.capacity > current.elements.count else { return }
        if let edit, edit.after === current, node._replay(edit) {
            root = node
            return
        }
        node._becomeCopy(ofLeaf: current)
        root = node
    }

    /// A one-row change between two versions of a root leaf: the row at `removedAt` of
    /// the version before left it (`nil` for a new row), and the row at `insertedAt` of
    /// `after`, the version it made, came in.
    @usableFromInline struct _RootLeafEdit {
        @usableFromInline let removedAt: Int?
        @usableFromInline let insertedAt: Int
        @usableFromInline let after: _Node

        @inlinable init(removedAt: Int?, insertedAt: Int, after: _Node) {
            self.removedAt = removedAt
            self.insertedAt = insertedAt
            self.after = after
        }
    }
}

extension _CountedBTree {
    /// Runs `body` on the elements of the root, made unique first, when the root is a
    /// leaf with room for `room` more elements; returns `nil` and runs nothing otherwise.
    ///
    /// A short list's one-row change is then a few operations on one array instead of
    /// several descents. `body` may insert at most `room` elements, must not remove
    /// them all, and must leave them in the tree's order.
    ///
    /// - Complexity: O(1) (O(*n*) when the shared root is copied), plus `body`.
    @inlinable mutating func _editingRootLeaf<Result>(room: Int, _ body: (inout [Element]) -> Result) -> Result? {
        guard root?.isLeaf == true, count + room <= fanout.leaf else { return nil }
        _makeRootUnique()
        let node = root.unsafelyUnwrapped
        let result = body(&node.elements)
        node.count = node.elements.count
        return result
    }
}

extension _CountedBTree._Node {
    /// Makes this leaf, the version before `edit.after`, hold the elements of
    /// `edit.after` by making the same change; returns `false`, changing nothing, when
    /// the counts or offsets show that `edit` does not lead from this leaf's elements.
    ///
    /// - Precondition: both nodes are leaves, this one uniquely referenced, with room for
    ///   one more element.
    /// - Complexity: O(*n*) element moves for *n* elements, done as memory moves.
    @inlinable func _replay(_ edit: _CountedBTree._RootLeafEdit) -> Bool {
        let target = edit.after.elements
        guard elements.count - (edit.removedAt == nil ? 0 : 1) + 1 == target.count,
              edit.removedAt.map({ $0 >= 0 && $0 < elements.count }) ?? true,
              edit.insertedAt >= 0 && edit.insertedAt < target.count else { return false }
        if let removedAt = edit.removedAt { elements.remove(at: removedAt) }
        elements.insert(target[edit.insertedAt], at: edit.insertedAt)
        count = target.count
        return true
    }

    /// Makes this leaf hold the elements of `source`, writing only the elements whose
    /// bits differ.
    ///
    /// - Precondition: both nodes are leaves and this one is uniquely referenced.
    /// - Complexity: O(*n*) for *n* elements.
    @inlinable func _becomeCopy(ofLeaf source: _CountedBTree._Node) {
        let sourceCount = source.elements.count
        let overlap = Swift.min(elements.count, sourceCount)
        let stride = MemoryLayout<Element>.stride
        elements.withUnsafeMutableBufferPointer { target in
            source.elements.withUnsafeBufferPointer { origin in
                guard let targetBase = target.baseAddress, let originBase = origin.baseAddress else { return }
                for position in 0 ..< overlap
                where !_haveTheSameBytes(UnsafeRawPointer(targetBase + position), UnsafeRawPointer(originBase + position), count: stride) {
                    target[position] = origin[position]
                }
            }
        }
        if elements.count > sourceCount {
            elements.removeLast(elements.count - sourceCount)
        } else if sourceCount > overlap {
            elements._append(copiesOf: source.elements, overlap ..< sourceCount)
        }
        count = sourceCount
    }
}

/// Whether `count` bytes at `first` and at `second` are the same, compared a word at a
/// time. Two values of one type with the same bytes are the same value (any references
/// in them are to the same objects).
@inlinable func _haveTheSameBytes(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if first.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != second.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if first.load(fromByteOffset: offset, as: UInt8.self) != second.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}

/// Emptied leaf storage of one element type, kept for the next leaf copy.
///
/// A one-row change copies the one or two leaves it touches, and the leaves it replaced
/// are freed once every snapshot holding them is gone: usually on a renderer's queue,
/// while the copies are made on the diff queue. With an allocator that gives each
/// thread its own arena (glibc), memory freed on one thread does not serve allocations
/// on another, so without reuse every copy takes fresh pages and a list that is updated
/// one row at a time grows its resident memory by a leaf or two per update until each
/// arena holds a list's worth. Handing the freed storage back to the next copy reuses
/// memory that is already mapped, whichever thread freed it.
///
/// A shelf holds at most ``limit`` buffers, each empty, with room for between half and
/// twice the elements of a leaf of the default capacity; when it is full, the buffer
/// kept longest goes. A leaf copy takes the smallest buffer that is large enough.
///
/// The shelf's contents live in a ``LockedState``, so every access is serialized.
@usableFromInline final class _SpareLeafShelf<Element>: Sendable {
    /// The most buffers a shelf keeps (``_Tuning/spareLeavesPerType``).
    @inlinable static var limit: Int { _Tuning.spareLeavesPerType }

    /// The kept buffers, oldest first.
    ///
    /// Safety of `@unchecked Sendable`: every buffer in `buffers` is empty (``keep(_:emptying:)``
    /// empties a buffer before it is stored, and ``take(minimumCapacity:)`` hands out only
    /// stored buffers), so no `Element` value crosses threads through a shelf, whatever
    /// `Element` is.
    @usableFromInline struct Contents: @unchecked Sendable {
        @usableFromInline var buffers: [[Element]] = []

        @inlinable init() {
            buffers.reserveCapacity(_SpareLeafShelf.limit)
        }
    }

    @usableFromInline let contents = LockedState(Contents())

    @inlinable init() {}

    /// The number of buffers on the shelf.
    @inlinable var count: Int {
        contents.withLock { $0.buffers.count }
    }

    /// An empty buffer with room for at least `minimumCapacity` elements, or `nil` when
    /// the shelf has none: the smallest such buffer (the most recently kept of equals),
    /// so that a small leaf does not take storage a full one needs.
    ///
    /// - Parameter minimumCapacity: the elements the buffer must have room for.
    /// - Complexity: O(``limit``).
    @inlinable func take(minimumCapacity: Int) -> [Element]? {
        contents.withLock { contents in
            var best: Int? = nil
            for slot in contents.buffers.indices.reversed() where contents.buffers[slot].capacity >= minimumCapacity {
                if let current = best, contents.buffers[current].capacity <= contents.buffers[slot].capacity { continue }
                best = slot
            }
            guard let best else { return nil }
            return contents.buffers.remove(at: best)
        }
    }

    /// Empties `buffer` with `emptying`, keeping its storage, and puts it on the shelf
    /// when it is the size of a leaf's (otherwise it is left as it is).
    ///
    /// - Parameters:
    ///   - buffer: a freed leaf's elements.
    ///   - emptying: removes every element of a buffer, keeping its storage: the freed
    ///     node's ``_CountedBTree/_Node/_emptyKeepingStorage(_:)``, compiled for `Element`.
    /// - Complexity: O(*k*) to destroy *k* elements, then O(1).
    @inlinable func keep(_ buffer: inout [Element], emptying: (inout [Element]) -> Void) {
        guard Self.isWorthKeeping(capacity: buffer.capacity) else { return }
        // Emptied outside the lock: destroying a leaf's elements takes a while.
        emptying(&buffer)
        var kept: [Element] = []
        swap(&kept, &buffer)
        contents.withLock { contents in
            if contents.buffers.count == Self.limit { contents.buffers.removeFirst() }
            contents.buffers.append(kept)
        }
    }

    /// The capacity of a full leaf of a tree of the default capacities.
    @inlinable static var leafCapacity: Int { _CountedBTree<Element>._Fanout.default.leaf }

    /// Whether storage with room for `capacity` elements is a leaf's: between half and
    /// twice the elements of a full leaf.
    @inlinable static func isWorthKeeping(capacity: Int) -> Bool {
        capacity >= leafCapacity / 2 && capacity <= leafCapacity * 2
    }
}


#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
/// Safety of `@unchecked Sendable`: `buffers` is read and written only while `mutex` is
/// held (``take(minimumCapacity:)``, ``keep(_:)``), so accesses from different threads
/// are serialized. The buffers hold no elements, so no `Element` value crosses threads
/// through a shelf, whatever `Element` is; ``emptying``, called on any thread, is
/// `@Sendable`.
@usableFromInline final class _SpareLeafShelf<Element>: @unchecked Sendable {
    /// The most buffers a shelf keeps: enough for the leaves a few one-row changes
    /// replace, while bounding what a shelf holds to a few hundred kilobytes.
    @inlinable static var limit: Int { 16 }

    @usableFromInline var buffers: [[Element]] = []
    /// Empties a buffer in code compiled for `Element`, once a leaf copy has supplied it.
    ///
    /// A leaf's storage is kept from its node's `deinit`, which the runtime runs in the
    /// node's generic code: emptied there, each element is destroyed through its type's
    /// value witnesses, one indirect call per element and per generic field. The copies
    /// run in code compiled for the element type (the engine is `@inlinable`), and the
    /// closure they pass is compiled with them: freeing a one-row update's replaced
    /// nodes took 7.2–7.3 µs with it against 9.0–9.8 µs without, in a million-row list.
    @usableFromInline var emptying: (@Sendable (inout [Element]) -> Void)? = nil
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable init() {
        buffers.reserveCapacity(Self.limit)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// The number of buffers on the shelf.
    @inlinable var count: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return buffers.count
    }

    /// An empty buffer with room for at least `minimumCapacity` elements, or `nil` when
    /// the shelf has none: the smallest such buffer (the most recently kept of equals),
    /// so that a small leaf does not take storage a full one needs.
    ///
    /// - Parameters:
    ///   - minimumCapacity: the elements the buffer must have room for.
    ///   - emptying: removes every element of a buffer, keeping its storage; the shelf
    ///     keeps the first one it is given and empties kept buffers with it.
    /// - Complexity: O(``limit``).
    @inlinable func take(minimumCapacity: Int, emptying: @escaping @Sendable (inout [Element]) -> Void) -> [Element]? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if self.emptying == nil { self.emptying = emptying }
        var best: Int? = nil
        for slot in buffers.indices.reversed() where buffers[slot].capacity >= minimumCapacity {
            if let current = best, buffers[current].capacity <= buffers[slot].capacity { continue }
            best = slot
        }
        guard let best else { return nil }
        return buffers.remove(at: best)
    }

    /// Empties `buffer`, keeping its storage (with ``emptying`` once a copy has supplied
    /// it), and puts it on the shelf when it is the size of a leaf's (otherwise it is
    /// left as it is).
    ///
    /// - Complexity: O(*k*) to destroy *k* elements, then O(1).
    @inlinable func keep(_ buffer: inout [Element]) {
        guard Self.isWorthKeeping(capacity: buffer.capacity) else { return }
        pthread_mutex_lock(mutex)
        let emptying = self.emptying
        pthread_mutex_unlock(mutex)
        if let emptying { emptying(&buffer) } else { buffer.removeAll(keepingCapacity: true) }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if buffers.count == Self.limit { buffers.removeFirst() }
        buffers.append(buffer)
        buffer = []
    }

    /// The capacity of a full leaf of a tree of the default capacities.
    @inlinable static var leafCapacity: Int { _CountedBTree<Element>._Fanout.default.leaf }

    /// Whether storage with room for `capacity` elements is a leaf's: between half and
    /// twice the elements of a full leaf.
    @inlinable static func isWorthKeeping(capacity: Int) -> Bool {
        capacity >= leafCapacity / 2 && capacity <= leafCapacity * 2
    }
}

/// The shelves of spare leaf storage, one per element type, shared by every tree.
@usableFromInline enum _SpareLeafStorage {
    /// The shelves by element type.
    ///
    /// Safety of `@unchecked Sendable` on the holder: the dictionary is read and
    /// written only inside `withLock`; each shelf is itself thread-safe.
    @usableFromInline static let shelves = LockedState<[ObjectIdentifier: _AnyShelf]>([:])

    /// The shelf for `Element`, made on first use.
    ///
    /// - Complexity: O(1) expected, under one lock.
    @inlinable static func shelf<Element>(of _: Element.Type) -> _SpareLeafShelf<Element> {
        let key = ObjectIdentifier(Element.self)
        let shelf = shelves.withLock { shelves -> AnyObject in
            if let shelf = shelves[key] { return shelf.object }
            let shelf = _SpareLeafShelf<Element>()
            shelves[key] = _AnyShelf(object: shelf)
            return shelf
        }
        // Keyed by the element type, so the shelf found is one made for `Element`.
        return unsafeDowncast(shelf, to: _SpareLeafShelf<Element>.self)
    }
}

/// A shelf of some element type, as the registry holds it.
///
/// Safety of `@unchecked Sendable`: `object` is a `_SpareLeafShelf`, which is itself
/// `Sendable`; only the element type is erased.
@usableFromInline struct _AnyShelf: @unchecked Sendable {
    @usableFromInline let object: AnyObject

    @inlinable init(object: AnyObject) {
        self.object = object
    }
}

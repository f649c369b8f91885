import Testing
@testable import ListEngine

/// Element types of their own, so that no other test touches their shelves: shelves are
/// shared by every tree of an element type, and tests run in parallel.
fileprivate struct ShelvedValue: Equatable {
    var value: Int
}

private struct CopiedValue: Equatable {
    var value: Int
}

private struct SmallRootValue: Equatable {
    var value: Int
}

private final class Tracked {
    let value: Int
    init(_ value: Int) { self.value = value }
}

extension _SpareLeafShelf {
    /// `keep(_:emptying:)` with the standard library's way of emptying.
    fileprivate func keep(_ buffer: inout [Element]) {
        keep(&buffer, emptying: { $0.removeAll(keepingCapacity: true) })
    }
}

@Suite struct SpareLeafStorageTests {
    /// A leaf's capacity for 8-byte elements.
    fileprivate let leaf = _SpareLeafShelf<ShelvedValue>.leafCapacity

    /// An empty buffer with room for exactly `capacity` elements, as far as the
    /// allocator allows.
    fileprivate func buffer(capacity: Int) -> [ShelvedValue] {
        var buffer: [ShelvedValue] = []
        buffer.reserveCapacity(capacity)
        buffer.append(contentsOf: (0 ..< capacity).map { ShelvedValue(value: $0) })
        return buffer
    }

    @Test("a shelf keeps leaf-sized buffers, emptied, and leaves others alone")
    func keepsLeafSizedBuffers() {
        #expect(leaf == 512)
        let shelf = _SpareLeafShelf<ShelvedValue>()
        var small = buffer(capacity: leaf / 4)
        shelf.keep(&small)
        #expect(shelf.count == 0)
        #expect(small.count == leaf / 4, "a buffer that is not kept is left as it was")

        var huge = buffer(capacity: leaf * 3)
        shelf.keep(&huge)
        #expect(shelf.count == 0)

        var kept = buffer(capacity: leaf + 1)
        shelf.keep(&kept)
        #expect(shelf.count == 1)
        #expect(kept.isEmpty && kept.capacity == 0, "the kept storage is the shelf's now")

        let taken = shelf.take(minimumCapacity: leaf + 1)
        #expect(taken?.isEmpty == true)
        #expect((taken?.capacity ?? 0) >= leaf + 1)
        #expect(shelf.count == 0)
        #expect(shelf.take(minimumCapacity: 1) == nil)
    }

    @Test("a copy takes the smallest buffer that is large enough, the most recent of equals")
    func takesTheSmallestLargeEnough() {
        let shelf = _SpareLeafShelf<ShelvedValue>()
        var large = buffer(capacity: leaf + 1), smaller = buffer(capacity: leaf / 2 + 10), largest = buffer(capacity: leaf * 2 - 10)
        let largeCapacity = large.capacity, smallerCapacity = smaller.capacity, largestCapacity = largest.capacity
        shelf.keep(&large)
        shelf.keep(&smaller)
        shelf.keep(&largest)
        #expect(shelf.take(minimumCapacity: smallerCapacity + 1)?.capacity == largeCapacity)
        #expect(shelf.take(minimumCapacity: 1)?.capacity == smallerCapacity)
        #expect(shelf.take(minimumCapacity: largestCapacity + 1) == nil)
        #expect(shelf.take(minimumCapacity: leaf)?.capacity == largestCapacity)
        #expect(shelf.count == 0)

        var first = buffer(capacity: leaf), second = buffer(capacity: leaf)
        let secondStorage = second.withUnsafeBufferPointer { $0.baseAddress }
        shelf.keep(&first)
        shelf.keep(&second)
        #expect(shelf.take(minimumCapacity: leaf)?.withUnsafeBufferPointer { $0.baseAddress } == secondStorage)
    }

    @Test("a kept buffer is emptied by the code it comes with, and a freed node's is the node's own")
    func emptiedByTheGivenCode() {
        let shelf = _SpareLeafShelf<ShelvedValue>()
        let emptied = LockedState(0)
        var kept = buffer(capacity: leaf)
        shelf.keep(&kept, emptying: { buffer in
            emptied.withLock { $0 += 1 }
            buffer.removeAll(keepingCapacity: true)
        })
        #expect(emptied.withLock { $0 } == 1)
        #expect(shelf.take(minimumCapacity: leaf)?.isEmpty == true)

        var small = buffer(capacity: 1)
        shelf.keep(&small, emptying: { _ in Issue.record("a buffer too small to keep is not emptied here") })
        #expect(small.count == 1)

        // A node's own function destroys every element: a branch's array keeps its
        // storage; a leaf's storage of a leaf's size goes to the shelf.
        let node = _CountedBTree<ShelvedValue>._Node(leaf: [])
        var elements = (0 ..< leaf).map { ShelvedValue(value: $0) }
        let capacity = elements.capacity
        node._freeing(&elements, false)
        #expect(elements.isEmpty && elements.capacity == capacity)
        elements = (0 ..< leaf).map { ShelvedValue(value: $0) }
        node._freeing(&elements, true)
        #expect(elements.isEmpty && elements.capacity == 0, "the storage went to the shelf")
    }

    @Test("a full shelf lets the buffer kept longest go")
    func boundedByLimit() {
        let shelf = _SpareLeafShelf<ShelvedValue>()
        let limit = _SpareLeafShelf<ShelvedValue>.limit
        // The first buffer is the one large enough for the request below.
        var first = buffer(capacity: leaf + leaf / 2)
        shelf.keep(&first)
        for _ in 1 ..< limit {
            var next = buffer(capacity: leaf / 2)
            shelf.keep(&next)
        }
        #expect(shelf.count == limit)
        var more = buffer(capacity: leaf / 2)
        shelf.keep(&more)
        #expect(shelf.count == limit)
        #expect(shelf.take(minimumCapacity: leaf + 1) == nil, "the oldest, largest buffer was let go")
    }

    @Test("a freed leaf's storage goes to the shelf of its element type, and the next leaf copy takes it")
    func treesReuseFreedLeaves() {
        let shelf = _SpareLeafStorage.shelf(of: CopiedValue.self)
        #expect(shelf === _SpareLeafStorage.shelf(of: CopiedValue.self))
        var tree = _CountedBTree((0 ..< 2_000).map { CopiedValue(value: $0) })
        #expect(shelf.count == 0)

        var snapshot: _CountedBTree<CopiedValue>? = tree
        tree[10] = CopiedValue(value: -10)  // copies the first leaf; the snapshot keeps the old one
        #expect(shelf.count == 0)
        snapshot = nil
        #expect(snapshot == nil)
        #expect(shelf.count == 1, "the replaced leaf's storage was kept")

        let another = tree
        tree[1_500] = CopiedValue(value: -1_500)  // copies another leaf into the kept storage
        #expect(shelf.count == 0)
        #expect(Array(tree) == (0 ..< 2_000).map { CopiedValue(value: $0 == 10 ? -10 : $0 == 1_500 ? -1_500 : $0) })
        #expect(another[1_500] == CopiedValue(value: 1_500))
        tree._checkInvariants()
    }

    @Test("a small root leaf is copied to its size, not into spare storage")
    func smallRootsAreNotShelved() {
        let shelf = _SpareLeafStorage.shelf(of: SmallRootValue.self)
        var tree = _CountedBTree((0 ..< 20).map { SmallRootValue(value: $0) })
        var snapshot: _CountedBTree<SmallRootValue>? = tree
        tree[3] = SmallRootValue(value: -3)
        snapshot = nil
        #expect(snapshot == nil)
        #expect(shelf.count == 0)
        #expect((tree.root?.elements.capacity ?? 0) < _SpareLeafShelf<SmallRootValue>.leafCapacity / 2)
    }

    @Test("keeping a leaf's storage destroys the rows it held")
    func keptStorageReleasesElements() {
        var tree = _CountedBTree((0 ..< 2_000).map { Tracked($0) })
        weak var replaced: Tracked?
        do {
            let snapshot = tree
            replaced = snapshot[7]
            tree[7] = Tracked(-7)
            #expect(replaced != nil, "the snapshot still holds the replaced row")
        }
        #expect(replaced == nil, "the old leaf's rows were destroyed when its storage was kept")
        #expect(tree[7].value == -7 && tree[8].value == 8)
    }

    @Test("freed small leaves and branches destroy what they held")
    func freedNodesReleaseElements() {
        weak var inSmallLeaf: Tracked?, firstOfChild: Tracked?
        do {
            var small = _CountedBTree((0 ..< 20).map { Tracked($0) })
            inSmallLeaf = small[3]
            small[3] = Tracked(-3)
            // A tree of several levels: branches hold their children's first elements.
            let large = _CountedBTree((0 ..< 5_000).map { Tracked($0) }, fanout: .init(leaf: 8, branch: 4))
            firstOfChild = large[8]
            #expect(inSmallLeaf == nil, "the replaced small root leaf destroyed its rows")
            #expect(firstOfChild != nil && large.count == 5_000 && small[3].value == -3)
        }
        #expect(firstOfChild == nil, "the freed tree's leaves and branches destroyed their elements")
    }
}

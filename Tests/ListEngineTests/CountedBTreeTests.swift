import ListTestSupport
import Testing
@testable import ListEngine

/// SplitMix64: a small, fast, seedable generator, so that every failure names a seed that
/// reproduces it.
private struct _BTreeTestRNG: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly random integer in `0 ..< bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next(upperBound: UInt64(bound)))
    }

    /// A uniformly random integer in `range`.
    mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }
}

private typealias Tree = _CountedBTree<Int>

extension _CountedBTree {
    /// Every leaf node of the tree, in no particular order.
    var leafNodes: [_Node] {
        var leaves: [_Node] = []
        var stack = root.map { [$0] } ?? []
        while let node = stack.popLast() {
            if node.isLeaf { leaves.append(node) } else { stack.append(contentsOf: node.children) }
        }
        return leaves
    }
}

/// Collects the identities of every node of `tree`.
private func nodeIdentities(_ tree: Tree) -> Set<ObjectIdentifier> {
    var result = Set<ObjectIdentifier>()
    var stack = tree.root.map { [$0] } ?? []
    while let node = stack.popLast() {
        result.insert(ObjectIdentifier(node))
        stack.append(contentsOf: node.children)
    }
    return result
}

/// The number of levels of `tree` (0 when empty).
private func height(_ tree: Tree) -> Int {
    var levels = 0
    var node = tree.root
    while let current = node {
        levels += 1
        node = current.children.first
    }
    return levels
}

/// Compares a tree with the array it should equal. Records an issue naming the seed and
/// returns `false` at the first difference.
private struct Checker {
    let seed: UInt64
    var step = 0

    func fail(_ what: String) -> Bool {
        Issue.record("seed \(seed), step \(step): \(what)")
        return false
    }

    func matches(_ tree: Tree, _ model: [Int], rng: inout _BTreeTestRNG, thoroughly: Bool) -> Bool {
        guard tree.count == model.count else { return fail("count \(tree.count), expected \(model.count)") }
        guard tree.isEmpty == model.isEmpty else { return fail("isEmpty \(tree.isEmpty)") }
        if thoroughly {
            let contents = Array(tree)
            guard contents == model else {
                let common = min(contents.count, model.count)
                let position = (0 ..< common).first { contents[$0] != model[$0] } ?? common
                return fail("contents differ first at position \(position) of \(model.count)")
            }
        }
        for _ in 0 ..< (model.isEmpty ? 0 : 3) {
            let position = rng.below(model.count)
            guard tree[position] == model[position] else {
                return fail("tree[\(position)] is \(tree[position]), expected \(model[position])")
            }
        }
        let start = rng.below(model.count + 1)
        let end = thoroughly ? model.count : min(model.count, start + 2 * tree.fanout.leaf + 1)
        var iterator = tree.elements(from: start)
        for position in start ..< end {
            let element = iterator.next()
            guard element == model[position] else {
                return fail("elements(from: \(start)) gave \(String(describing: element)) at \(position), expected \(model[position])")
            }
        }
        if end == model.count, let extra = iterator.next() {
            return fail("elements(from: \(start)) continued past the end with \(extra)")
        }
        return true
    }

    func partitionsLikeLinearSearch(_ tree: Tree, _ model: [Int], pivot: Int) -> Bool {
        let atLeast = tree.partitioningIndex { $0 >= pivot }
        let expectedAtLeast = model.firstIndex { $0 >= pivot } ?? model.count
        guard atLeast == expectedAtLeast else {
            return fail("partitioningIndex(>= \(pivot)) is \(atLeast), expected \(expectedAtLeast)")
        }
        let above = tree.partitioningIndex { $0 > pivot }
        let expectedAbove = model.firstIndex { $0 > pivot } ?? model.count
        guard above == expectedAbove else {
            return fail("partitioningIndex(> \(pivot)) is \(above), expected \(expectedAbove)")
        }
        return true
    }
}

/// The position of the first element of the sorted array `array` that is greater than
/// `value`, found by an independent binary search.
private func upperBound(of value: Int, in array: [Int]) -> Int {
    var low = 0, high = array.count
    while low < high {
        let middle = (low + high) / 2
        if array[middle] > value { high = middle } else { low = middle + 1 }
    }
    return low
}

/// Runs one random scenario against an array model. Returns `false` after the first
/// recorded failure.
private func runScenario(seed: UInt64) -> Bool {
    var rng = _BTreeTestRNG(seed: seed)
    var checker = Checker(seed: seed)
    let fanout = rng.below(8) == 0
        ? Tree._Fanout.default
        : Tree._Fanout(leaf: rng.within(4 ... 8), branch: rng.within(4 ... 6))

    var tree = Tree(fanout: fanout)
    var model: [Int] = []
    var nextValue = 0
    var snapshots: [(tree: Tree, model: [Int])] = []

    // A second tree kept sorted by inserting at the partitioning index, as a sorted list does.
    var sorted = Tree(fanout: fanout)
    var sortedModel: [Int] = []
    let valueRange = rng.within(1 ... 500)

    func randomSize() -> Int {
        switch rng.below(6) {
        case 0: return rng.below(3)
        case 1: return fanout.leaf + rng.within(-1 ... 1)
        case 2: return fanout.leaf * fanout.branch + rng.within(-1 ... 1)
        case 3: return rng.below(3_000)
        default: return rng.below(300)
        }
    }

    let steps = 24
    for step in 0 ..< steps {
        checker.step = step
        switch rng.below(100) {
        case 0 ..< 30:
            let position = rng.below(model.count + 1)
            tree.insert(nextValue, at: position)
            model.insert(nextValue, at: position)
            nextValue += 1
        case 30 ..< 50:
            guard !model.isEmpty else { continue }
            let position = rng.below(model.count)
            let removed = tree.remove(at: position)
            let expected = model.remove(at: position)
            guard removed == expected else { return checker.fail("remove(at: \(position)) returned \(removed), expected \(expected)") }
        case 50 ..< 60:
            guard !model.isEmpty else { continue }
            let position = rng.below(model.count)
            tree[position] = nextValue
            model[position] = nextValue
            nextValue += 1
        case 60 ..< 72:
            // A run of insertions at one place: splits several nodes on one path.
            let position = rng.below(model.count + 1)
            for _ in 0 ..< rng.within(1 ... 32) {
                tree.insert(nextValue, at: position)
                model.insert(nextValue, at: position)
                nextValue += 1
            }
        case 72 ..< 86:
            // A run of removals at one place: merges and redistributes along one path.
            guard !model.isEmpty else { continue }
            let position = rng.below(model.count)
            for _ in 0 ..< min(rng.within(1 ... 48), model.count - position) {
                let removed = tree.remove(at: position)
                let expected = model.remove(at: position)
                guard removed == expected else { return checker.fail("remove(at: \(position)) returned \(removed), expected \(expected)") }
            }
        case 86 ..< 96:
            let size = randomSize()
            model = Array(nextValue ..< nextValue + size)
            nextValue += size
            tree = Tree(model, fanout: fanout)
        default:
            tree.removeAll()
            model.removeAll()
        }
        guard checker.matches(tree, model, rng: &rng, thoroughly: step % 6 == 5) else { return false }
        if rng.below(10) == 0 { snapshots.append((tree, model)) }

        // The sorted tree: mostly insertions at the partitioning index, some removals and
        // an occasional bulk build from sorted data.
        switch rng.below(20) {
        case 0:
            sortedModel = (0 ..< randomSize()).map { _ in rng.below(valueRange) }.sorted()
            sorted = Tree(sortedModel, fanout: fanout)
        case 1 ..< 5:
            for _ in 0 ..< min(rng.within(1 ... 30), sortedModel.count) {
                let position = rng.below(sortedModel.count)
                sorted.remove(at: position)
                sortedModel.remove(at: position)
            }
        default:
            for _ in 0 ..< rng.within(1 ... 12) {
                let value = rng.below(valueRange)
                let position = sorted.partitioningIndex { $0 > value }
                sorted.insert(value, at: position)
                sortedModel.insert(value, at: upperBound(of: value, in: sortedModel))
            }
        }
        guard checker.matches(sorted, sortedModel, rng: &rng, thoroughly: step % 6 == 5),
              checker.partitionsLikeLinearSearch(sorted, sortedModel, pivot: rng.within(-1 ... valueRange))
        else { return false }
    }

    checker.step = steps
    guard checker.matches(tree, model, rng: &rng, thoroughly: true) else { return false }
    for (snapshot, snapshotModel) in snapshots {
        guard checker.matches(snapshot, snapshotModel, rng: &rng, thoroughly: true) else { return false }
    }
    return true
}

@Suite("CountedBTree", .cpuBound)
struct CountedBTreeTests {
    /// 2,000 seeds, split in chunks so that they run in parallel.
    @Test("Random operations match an array", arguments: 0 ..< 8)
    func randomOperationsMatchArray(chunk: Int) {
        let seedsPerChunk: UInt64 = 250
        let first = UInt64(chunk) * seedsPerChunk
        for seed in first ..< first + seedsPerChunk {
            guard runScenario(seed: seed) else { return }
        }
    }

    @Test("An empty tree")
    func emptyTree() {
        var tree = Tree()
        #expect(tree.isEmpty)
        #expect(tree.count == 0)
        #expect(Array(tree) == [])
        var iterator = tree.elements(from: 0)
        #expect(iterator.next() == nil)
        #expect(tree.partitioningIndex { _ in true } == 0)
        tree.removeAll()
        #expect(tree.isEmpty)
        #expect(Tree([]).isEmpty)
        tree.insert(7, at: 0)
        #expect(tree.remove(at: 0) == 7)
        #expect(tree.isEmpty)
        #expect(tree.root == nil)
    }

    /// Sizes at the edges of the default capacities: one leaf filled to its bulk-build
    /// target (seven eighths) or to capacity, two leaves, and a full first branch level.
    static let bulkBuildSizes: [Int] = {
        let fanout = Tree._Fanout.default
        let target = fanout.leaf - fanout.leaf / 8, level = target * fanout.branch
        return [0, 1, 2, target, target + 1, fanout.leaf - 1, fanout.leaf, fanout.leaf + 1,
                2 * target, 2 * target + 1, level - 1, level, level + 1, 100_000]
    }()

    @Test("Bulk builds keep the order of any collection", arguments: bulkBuildSizes)
    func bulkBuild(size: Int) {
        let source = Array(0 ..< size)
        let tree = Tree(source)
        #expect(tree.count == size)
        #expect(Array(tree) == source)
        #expect(tree.underestimatedCount == size)
        tree._checkInvariants()

        // A collection without random access.
        let filtered = Tree(source.lazy.filter { $0 % 3 != 0 })
        #expect(Array(filtered) == source.filter { $0 % 3 != 0 })
        filtered._checkInvariants()
    }

    @Test("A leaf allocated for its elements grows to the leaf capacity at most")
    func exactLeavesGrowToTheCapacity() {
        // An element type of its own: the spare storage of freed leaves is kept per
        // element type for the process, and other tests running beside this one free
        // `Int` leaves of larger capacities into it.
        struct Value: Sendable { var value: Int }
        let fanout = _CountedBTree<Value>._Fanout(leaf: 64, branch: 4)
        var tree = _CountedBTree<Value>(count: 100, fanout: fanout) { Value(value: $0 * 2) }  // two leaves of 50, allocated for 50
        for value in 0 ..< 40 {
            tree.insert(Value(value: 1_000 + value), at: 3)  // the first leaf, held only here: grown in place
            // The allocator may hand out a few bytes more than asked (glibc: a chunk whose
            // remainder is too small to split), which the array counts as capacity; a
            // leaf grown by doubling would have room for 128.
            for leaf in tree.leafNodes {
                #expect(leaf.elements.capacity <= fanout.leaf + 8, "a leaf of \(leaf.elements.count) has room for \(leaf.elements.capacity)")
            }
        }
        #expect(tree.count == 140)
        tree._checkInvariants()
    }

    @Test("A build in two halves on two threads makes the tree one thread makes, leaf for leaf")
    func concurrentBuild() {
        for leaf in [4, 7, 512] {
            let fanout = Tree._Fanout(leaf: leaf, branch: 4)
            for size in [0, 1, leaf - 1, leaf, leaf + 1, 2 * leaf, 2 * leaf + 1, 37 * leaf + 3, 20_000] {
                let alone = Tree(count: size, fanout: fanout) { $0 * 3 }
                let inHalves = Tree(count: size, fanout: fanout, concurrently: true) { $0 * 3 }
                let sequential = Tree(count: size, fanout: fanout, concurrently: false) { $0 * 3 }
                inHalves._checkInvariants()
                let context = "leaf \(leaf), size \(size)"
                #expect(Array(inHalves) == Array(alone), "\(context)")
                #expect(inHalves.leafNodes.map(\.elements) == alone.leafNodes.map(\.elements), "\(context)")
                #expect(sequential.leafNodes.map(\.elements) == alone.leafNodes.map(\.elements), "\(context)")
            }
        }
    }

    @Test("Bulk builds of every small size with small nodes")
    func bulkBuildSmallNodes() {
        for leaf in 4 ... 9 {
            for branch in 4 ... 6 {
                let fanout = Tree._Fanout(leaf: leaf, branch: branch)
                for size in 0 ... 200 {
                    let tree = Tree(0 ..< size, fanout: fanout)
                    tree._checkInvariants()
                    #expect(tree.count == size && tree.elementsEqual(0 ..< size), "leaf \(leaf), branch \(branch), size \(size)")
                }
            }
        }
    }

    @Test("A copy is unaffected by mutations of the original, and the other way round")
    func valueSemantics() {
        let words = (0 ..< 2_000).map { "word \($0)" }
        var original = _CountedBTree<String>(words, fanout: .init(leaf: 8, branch: 4))
        let copy = original
        var iterator = original.makeIterator()

        original[10] = "changed"
        original.insert("inserted", at: 1_000)
        original.remove(at: 0)
        for _ in 0 ..< 500 { original.remove(at: 700) }
        #expect(Array(copy) == words)
        #expect(Array(IteratorSequence(iterator)) == words)

        var second = copy
        second.removeAll()
        second.insert("alone", at: 0)
        #expect(Array(copy) == words)
        #expect(Array(second) == ["alone"])
        #expect(original[9] == "changed")
        #expect(original.count == words.count - 500)

        var third = copy
        iterator = third.elements(from: 1_990)
        third[1_995] = "new"
        #expect(Array(IteratorSequence(iterator)) == Array(words[1_990...]))
        #expect(third[1_995] == "new")
        #expect(copy[1_995] == "word 1995")
    }

    @Test("Snapshots that differ by one element share all nodes but one path")
    func structuralSharing() {
        let original = Tree(0 ..< 200_000)
        let levels = height(original)
        let originalNodes = nodeIdentities(original)

        var replaced = original
        replaced[123_456] = -1
        #expect(nodeIdentities(replaced).subtracting(originalNodes).count == levels)

        var inserted = original
        inserted.insert(-1, at: 54_321)
        // One path, plus at most one new sibling per level and a new root.
        #expect(nodeIdentities(inserted).subtracting(originalNodes).count <= 2 * levels + 1)

        var removed = inserted
        let insertedNodes = nodeIdentities(inserted)
        removed.remove(at: 99_999)
        // One path, plus at most one rebalanced sibling per level.
        #expect(nodeIdentities(removed).subtracting(insertedNodes).count <= 2 * levels)

        #expect(original[123_456] == 123_456 && original.count == 200_000)
        #expect(replaced[123_456] == -1)
        #expect(inserted[54_321] == -1 && inserted.count == 200_001)
    }

    @Test("Mutating a unique tree does not copy its nodes")
    func uniqueTreeMutatesInPlace() {
        var tree = Tree(0 ..< 50_000)
        let before = nodeIdentities(tree)
        tree[25_000] = -1
        #expect(nodeIdentities(tree) == before)
    }

    @Test("partitioningIndex makes O(log n) predicate calls")
    func partitioningIndexIsLogarithmic() {
        let tree = Tree((0 ..< 200_000).map { $0 * 2 })
        for pivot in [-1, 0, 1, 77_777, 199_998, 399_998, 399_999, 500_000] {
            var calls = 0
            let index = tree.partitioningIndex { calls += 1; return $0 >= pivot }
            #expect(index == min(200_000, max(0, (pivot + 1) / 2)), "pivot \(pivot)")
            #expect(calls <= 30, "pivot \(pivot): \(calls) calls")
        }
    }

    @Test("partitioningIndex with an inconsistent predicate stays in range")
    func inconsistentPredicate() {
        var rng = _BTreeTestRNG(seed: 0xB7EE)
        for size in [0, 1, 5, 64, 1_000, 20_000] {
            for fanout in [Tree._Fanout(leaf: 4, branch: 4), .default] {
                let tree = Tree(0 ..< size, fanout: fanout)
                for trial in 0 ..< 200 {
                    let index = tree.partitioningIndex { _ in rng.below(2) == 0 }
                    #expect((0 ... size).contains(index), "size \(size), trial \(trial): \(index)")
                }
                #expect(tree.partitioningIndex { _ in true } == 0)
                #expect(tree.partitioningIndex { _ in false } == size)
            }
        }
    }

    @Test("elements(from:) starts anywhere, including at the end")
    func elementsFromEveryPosition() {
        let source = Array(0 ..< 300)
        let tree = Tree(source, fanout: .init(leaf: 4, branch: 4))
        for start in 0 ... source.count {
            #expect(Array(IteratorSequence(tree.elements(from: start))) == Array(source[start...]), "start \(start)")
        }
    }

    @Test("Appending a range copies each element once, trivial or not, and takes one reference to each")
    func appendingCopies() {
        final class Box {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        var copies: [Box] = []
        weak var probe: Box?
        do {
            let source = (0 ..< 300).map(Box.init)
            probe = source[150]
            copies._append(copiesOf: source, 100 ..< 250)
            copies._append(copiesOf: source, 0 ..< 0)
            copies._append(copiesOf: source, 299 ..< 300)
            #expect(copies.map(\.value) == Array(100 ..< 250) + [299])
            #expect(copies.indices.dropLast().allSatisfy { copies[$0] === source[100 + $0] })
        }
        // The source is gone: each copied element is held by the copy alone.
        #expect(probe != nil)
        #expect(isKnownUniquelyReferenced(&copies[50]))
        copies.removeAll()
        #expect(probe == nil)

        var numbers = [-1]
        numbers._append(copiesOf: Array(0 ..< 1_000), 10 ..< 990)
        #expect(numbers == [-1] + Array(10 ..< 990))
        var strings: [String] = []
        let long = (0 ..< 40).map { "a string long enough to live on the heap, number \($0)" }
        strings._append(copiesOf: long, 5 ..< 40)
        #expect(strings == Array(long[5...]))
    }
}


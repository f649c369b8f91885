@testable import ListEngine
import ListTestSupport
import Testing

/// The whole-list paths of the storage (bulk build, merged insertion, `replaceAll`),
/// at sizes that take them — parallel halves, radix-sorted id hashes, merges — checked
/// against the one-at-a-time meaning computed the slow way.
@Suite(.cpuBound) struct ListStorageBulkTests {
    /// Rows in the order that inserting new ids one at a time at their upper bounds gives.
    static func oneAtATime(_ items: [TestRow], into rows: [TestRow] = []) -> [TestRow] {
        var rows = rows
        for item in items {
            var low = 0, high = rows.count
            while low < high {
                let middle = (low + high) / 2
                if item < rows[middle] { high = middle } else { low = middle + 1 }
            }
            rows.insert(item, at: low)
        }
        return rows
    }

    /// Records an issue unless every id is found with its item, and sampled ids at their rows.
    static func expectIndexed(_ storage: _ListStorage<TestRow>, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let rows = Array(storage.rows)
        #expect(storage.ids.count == expectedIndexCount(rows.count), "\(context)", sourceLocation: sourceLocation)
        for (offset, row) in rows.enumerated()
        where storage[id: row.id] != row || (offset % 97 == 0 && storage.position(of: row.id) != offset) {
            Issue.record("id \(row.id) not indexed at \(offset) — \(context)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test("a bulk add into an empty list equals inserting one at a time", arguments: [10, 5_000, 20_000])
    func bulkAdd(count: Int) {
        for seed in UInt64(0)..<2 {
            var rng = SplitMix64(seed: seed &+ UInt64(count))
            let keys = rng.chance(0.5) ? 8 : count * 4  // many ties, or almost none
            let items = (0..<count).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }.shuffled(using: &rng)
            var storage = _ListStorage<TestRow>(comparator: .natural)
            storage.add(contentsOf: items)
            let context = "count \(count) seed \(seed)"
            #expect(Array(storage.rows) == items.sorted { $0 < $1 }, "\(context)")  // stable: the one-at-a-time order
            Self.expectIndexed(storage, context)
        }
    }

    @Test("a bulk add of items already in order builds its trees in halves, as one thread builds them")
    func bulkAddInOrder() {
        let count = _Tuning.parallelBuildMinimumItems + 3_001
        let items = (0..<count).map { TestRow(id: count - $0, key: $0 * 2) }  // ids in another order than keys
        guard let built = _ListStorage<TestRow>._build(items, comparator: .natural) else {
            Issue.record("distinct ids were taken for repeated ones")
            return
        }
        let storage = built.storage
        #expect(built.isStrictlyIncreasing)
        #expect(Array(storage.rows) == items)
        Self.expectIndexed(storage, "in order")
        let alone = _IDIndex(uniqueItems: items)
        #expect(storage.ids.entries.leafNodes.map { $0.elements.map(\.hash) } == alone.entries.leafNodes.map { $0.elements.map(\.hash) })
        #expect(storage.rows.leafNodes.map(\.elements) == _CountedBTree(count: count) { items[$0] }.leafNodes.map(\.elements))

        // A repeated id is found the same way.
        var repeated = items
        repeated[count / 2] = TestRow(id: items[3].id, key: items[count / 2].key)
        #expect(_ListStorage<TestRow>._build(repeated, comparator: .natural) == nil)
    }

    @Test("many new ids added at once equal inserting them one at a time, with and without ties")
    func mergedInsertion() {
        for seed in UInt64(0)..<4 {
            var rng = SplitMix64(seed: seed)
            let keys = seed % 2 == 0 ? 1_000_000 : 50
            let existing = (0..<20_000).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }
            let added = (20_000..<26_000).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }.shuffled(using: &rng)
            var storage = _ListStorage<TestRow>(comparator: .natural)
            storage.add(contentsOf: existing)
            storage.add(contentsOf: added)
            let context = "seed \(seed)"
            #expect(Array(storage.rows) == Self.oneAtATime(added, into: Self.oneAtATime(existing)), "\(context)")
            Self.expectIndexed(storage, context)
        }
    }

    @Test("replaceAll of many rows with no ties gives their sorted order, in order, shuffled or with a repeated id")
    func replaceAllWithoutTies() {
        for seed in UInt64(0)..<6 {
            var rng = SplitMix64(seed: seed)
            var keys = Array(0..<30_000).map { $0 * 10 }.shuffled(using: &rng)  // distinct: no ties
            let old = (0..<20_000).map { TestRow(id: $0, key: keys.removeLast()) }
            var replacement = old.filter { _ in rng.chance(0.9) }.map {
                rng.chance(0.1) ? TestRow(id: $0.id, key: keys.removeLast(), payload: 1) : $0
            }
            replacement += (20_000..<21_000).map { TestRow(id: $0, key: keys.removeLast()) }
            switch seed % 3 {
            case 0: replacement.sort { $0 < $1 }  // as a server returns them
            case 1: replacement.shuffle(using: &rng)
            default: replacement.append(TestRow(id: replacement[0].id, key: 5))  // a repeated id: the last wins
            }
            var storage = _ListStorage<TestRow>(comparator: .natural)
            storage.add(contentsOf: old)
            storage.replaceAll(with: replacement)
            var last: [Int: TestRow] = [:]
            for item in replacement { last[item.id] = item }
            let context = "seed \(seed)"
            #expect(Array(storage.rows) == last.values.sorted { $0 < $1 }, "\(context)")
            Self.expectIndexed(storage, context)
        }
    }

    @Test("replaceAll with ties equals the oracle's one-at-a-time result")
    func replaceAllWithTies() {
        for seed in UInt64(0)..<6 {
            var rng = SplitMix64(seed: seed)
            let old = (0..<1_500).map { TestRow(id: $0, key: rng.int(in: 0..<40)) }
            var replacement = old.filter { _ in rng.chance(0.9) }.map {
                rng.chance(0.2) ? TestRow(id: $0.id, key: rng.int(in: 0..<40), payload: 1) : $0
            }
            replacement += (1_500..<1_700).map { TestRow(id: $0, key: rng.int(in: 0..<40)) }
            if seed % 2 == 0 { replacement.shuffle(using: &rng) } else { replacement.sort { $0 < $1 } }
            var storage = _ListStorage<TestRow>(comparator: .natural)
            var oracle = ListOracle<TestRow>(sortedBy: { $0 < $1 })
            storage.add(contentsOf: old)
            oracle.add(old)
            storage.replaceAll(with: replacement)
            oracle.replaceAll(with: replacement)
            let context = "seed \(seed)"
            #expect(Array(storage.rows) == oracle.rows, "\(context)")
            Self.expectIndexed(storage, context)
        }
    }

    @Test("sorting slots by hash keeps the order of equal hashes, in the standard and the bucket sort", arguments: [1_000, 4_096, 4_097, 50_000])
    func sortByHashIsStable(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        // Few distinct hashes, negative and positive, so that most slots tie.
        let hashes = (0 ..< 40).map { _ in Int(bitPattern: UInt(rng.next())) }
        var slots = (0 ..< count).map { _HashSlot(hash: hashes[rng.int(in: 0 ..< hashes.count)], index: $0) }
        let expected = slots.map { ($0.hash, $0.index) }.sorted { $0 < $1 }
        _sortByHash(&slots)
        #expect(slots.map { ($0.hash, $0.index) }.elementsEqual(expected) { $0 == $1 })
    }

    /// Hashes spread over the whole range (as `Hasher` gives) are sorted in buckets;
    /// hashes crowded into a narrow range (all in one bucket) make the bucket sort give
    /// up, and the radix sort finishes. Both orders are sorted and stable.
    @Test("sorting slots by hash: buckets for spread hashes, radix passes for crowded ones", arguments: [false, true])
    func sortByHashFallsBackForCrowdedHashes(crowded: Bool) {
        var rng = SplitMix64(seed: crowded ? 7 : 8)
        let count = 30_000
        var slots = (0 ..< count).map { index -> _HashSlot in
            // A tenth of the slots repeat an earlier hash, so that stability is tested too.
            let hash = crowded ? rng.int(in: -5_000 ..< 5_000) : Int(bitPattern: UInt(rng.next()))
            return _HashSlot(hash: hash, index: index)
        }
        for index in stride(from: 10, to: count, by: 10) { slots[index].hash = slots[rng.int(in: 0 ..< index)].hash }
        let expected = slots.map { ($0.hash, $0.index) }.sorted { $0 < $1 }
        var bucketed = slots
        #expect(_sortByHashInBuckets(&bucketed) == !crowded)
        #expect(bucketed.map(\.hash).sorted() == expected.map(\.0), "the bucket sort loses or adds slots")
        _sortByHash(&slots)
        #expect(slots.map { ($0.hash, $0.index) }.elementsEqual(expected) { $0 == $1 })
    }
}


@testable import ListEngine
import ListTestSupport
import Testing

/// The id index: lookups after bulk builds (radix-sorted hashes), single updates and
/// removals, and merges.
@Suite(.cpuBound) struct IDIndexTests {
    @Test("every id is found after a bulk build, and a repeated id is refused", arguments: [3, 4_000, 30_000])
    func bulkBuild(count: Int) {
        let items = (0..<count).map { TestRow(id: $0 * 7, key: $0 % 5) }
        guard let index = _IDIndex(distinctItems: items) else {
            Issue.record("distinct ids refused")
            return
        }
        #expect(index.count == count)
        for item in items where index[item.id] != item {
            Issue.record("id \(item.id) not found")
            return
        }
        #expect(index[1] == nil)
        #expect(_IDIndex(distinctItems: items + [TestRow(id: 0, key: 9)]) == nil)
        #expect(index.entries.map(\.hash) == index.entries.map(\.hash).sorted())
    }

    @Test("updates, removals and merges agree with a dictionary")
    func againstDictionary() {
        var rng = SplitMix64(seed: 42)
        var index = _IDIndex<TestRow>()
        var expected: [Int: TestRow] = [:]
        for step in 0..<3_000 {
            let id = rng.int(in: 0..<500)
            if rng.chance(0.3) {
                #expect(index.remove(id) == expected.removeValue(forKey: id), "step \(step)")
            } else {
                let item = TestRow(id: id, key: rng.int(in: 0..<10), payload: step)
                index.update(item)
                expected[id] = item
            }
        }
        #expect(index.count == expected.count)
        for (id, item) in expected { #expect(index[id] == item, "id \(id)") }

        let others = (1_000..<1_400).map { TestRow(id: $0, key: 0) }
        guard let other = _IDIndex(distinctItems: others), let merged = index._merging(other) else {
            Issue.record("a merge of disjoint indexes was refused")
            return
        }
        #expect(merged.count == expected.count + others.count)
        for item in Array(expected.values) + others { #expect(merged[item.id] == item, "id \(item.id)") }
        #expect(merged.entries.map(\.hash) == merged.entries.map(\.hash).sorted())
        #expect(index._merging(index) == nil, "an index shares every id with itself")
    }

    @Test("a build that keeps stored items takes each one that equals its new item, with colliding hashes", arguments: [3, 600, 5_000])
    func buildKeepingStoredEqualItems(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        let stored = (0..<count).map { CollidingSpelledRow(id: CollidingID(value: $0), payload: $0 % 3, spelling: "old") }
        guard let storedIndex = _IDIndex(distinctItems: stored.shuffled(using: &rng)) else {
            Issue.record("distinct colliding ids refused")
            return
        }
        // Equal items, changed items and absent ids, in random order.
        let ids = Array((0..<count + count / 2 + 1).shuffled(using: &rng).prefix(count))
        let items = ids.map { id in
            CollidingSpelledRow(id: CollidingID(value: id), payload: rng.chance(0.7) ? id % 3 : 5, spelling: "new")
        }
        var kept: [(index: Int, item: CollidingSpelledRow)] = []
        guard let index = _IDIndex(distinctItems: items, keepingEqualItemsOf: storedIndex, kept: &kept) else {
            Issue.record("distinct colliding ids refused")
            return
        }
        #expect(index.count == items.count)
        let equal = items.indices.filter { storedIndex[items[$0].id] == items[$0] }
        #expect(kept.map(\.index).sorted() == equal)
        #expect(kept.allSatisfy { $0.item.spelling == "old" && $0.item == items[$0.index] })
        for item in items {
            let expected = storedIndex[item.id] == item ? "old" : "new"
            #expect(index[item.id] == item && index[item.id]?.spelling == expected, "id \(item.id.value), payload \(item.payload)")
        }
        #expect(index.entries.map(\.hash) == index.entries.map(\.hash).sorted())
        // An item with the same bits as the stored one is not listed.
        var none: [(index: Int, item: CollidingSpelledRow)] = []
        _ = _IDIndex(distinctItems: stored, keepingEqualItemsOf: storedIndex, kept: &none)
        #expect(none.isEmpty)
    }

    @Test("ids whose hashes collide are kept apart", arguments: [2, 4_500])
    func hashCollisions(count: Int) {
        // Ids fall into 7 hash classes, so every lookup walks a run of equal hashes.
        let items = (0..<count).map { CollidingRow(id: CollidingID(value: $0), payload: $0) }
        var rng = SplitMix64(seed: 9)
        guard var index = _IDIndex(distinctItems: items.shuffled(using: &rng)) else {
            Issue.record("distinct colliding ids refused")
            return
        }
        #expect(_IDIndex(distinctItems: items + [CollidingRow(id: CollidingID(value: count - 1), payload: -1)]) == nil)
        var expected = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        for step in 0..<2_000 {
            let id = CollidingID(value: rng.int(in: 0..<count + 20))
            if rng.chance(0.4) {
                #expect(index.remove(id) == expected.removeValue(forKey: id), "step \(step)")
            } else {
                let item = CollidingRow(id: id, payload: step)
                index.update(item)
                expected[id] = item
            }
            #expect(index[CollidingID(value: -1 - step)] == nil)
        }
        #expect(index.count == expected.count)
        for (id, item) in expected where index[id] != item {
            Issue.record("id \(id.value) not found")
            return
        }
        let others = (count + 100 ..< count + 140).map { CollidingRow(id: CollidingID(value: $0), payload: 0) }
        guard let other = _IDIndex(distinctItems: others), let merged = index._merging(other) else {
            Issue.record("a merge of disjoint colliding indexes was refused")
            return
        }
        #expect(merged.count == expected.count + others.count)
        for item in others { #expect(merged[item.id] == item) }
        if let shared = expected.values.first, let overlapping = _IDIndex(distinctItems: [shared]) {
            #expect(index._merging(overlapping) == nil, "a shared colliding id must refuse the merge")
        }
    }
}

/// An id whose hash depends only on `value % 7`.
/// A row whose ids collide in 7 hash classes and whose `==` ignores `spelling`.
private struct CollidingSpelledRow: DataSourceComparable, Hashable {
    var id: CollidingID
    var payload: Int
    var spelling: String

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.payload == rhs.payload }
    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(payload)
    }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.id.value < rhs.id.value }
}

private struct CollidingID: Hashable, Sendable {
    var value: Int

    func hash(into hasher: inout Hasher) {
        hasher.combine(value % 7)
    }
}

private struct CollidingRow: DataSourceComparable, Hashable {
    var id: CollidingID
    var payload: Int

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.id.value < rhs.id.value }
}

@testable import ListEngine
import ListTestSupport
import Testing

/// The id index: lookups after bulk builds (radix-sorted hashes), single updates and
/// removals, and merges.
@Suite struct IDIndexTests {
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
        #expect(Array(index.hashes) == Array(index.hashes).sorted())
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
        #expect(Array(merged.hashes) == Array(merged.hashes).sorted())
        #expect(index._merging(index) == nil, "an index shares every id with itself")
    }
}

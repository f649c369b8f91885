import ListTestSupport
import Testing
@testable import ListEngine

/// A sectioned list's sorts compute each item's section once (`_RowOrder.keyedSort`);
/// they must give the same positions as a stable sort by the section-major comparator.
@Suite struct KeyedSortTests {
    static let seeds = propertySeedCount(default: 200)

    /// Items with few sections and few sort keys, so that ties within a section, and
    /// items equal in both, are common.
    static func items(_ rng: inout SplitMix64) -> [TestRow] {
        (0 ..< rng.int(in: 0 ..< 300)).map { TestRow(id: $0, key: rng.int(in: 0 ..< 12), payload: rng.int(in: 0 ..< 4)) }
    }

    /// The positions of `items[range]` stably sorted by `less`: the oracle.
    static func stablySorted(_ items: [TestRow], _ range: Range<Int>, by less: (TestRow, TestRow) -> Bool) -> [Int32] {
        // Insertion sort: stable by construction, independent of the library's sort.
        var order: [Int] = []
        for position in range {
            var slot = order.count
            while slot > 0 && less(items[position], items[order[slot - 1]]) { slot -= 1 }
            order.insert(position, at: slot)
        }
        return order.map { Int32($0) }
    }

    /// A sectioned list's row order, sections by payload, and its comparator: within a
    /// section the items' `<`, or with `withOrder` descending key, a tie-rich order given
    /// as a closure.
    static func sectionMajorOrder(withOrder: Bool) -> (order: _RowOrder<TestRow>, comparator: @Sendable (TestRow, TestRow) -> Bool) {
        let rule = _SectionRule<Int, TestRow>(sectionOf: { $0.payload })
        let descending: @Sendable (TestRow, TestRow) -> Bool = { $0.key > $1.key }
        let given = withOrder ? descending : nil
        return (rule.rowOrder(given), rule.sectionMajor(given))
    }

    @Test("keyed sorts equal the section-major comparator's stable sort, with the items' < and with a given order", arguments: [false, true])
    func keyedSortMatchesComparator(withOrder: Bool) {
        let (order, comparator) = Self.sectionMajorOrder(withOrder: withOrder)
        #expect(order.keyedSort != nil)
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed)
            let items = Self.items(&rng)
            let lower = items.isEmpty ? 0 : rng.int(in: 0 ..< items.count)
            let range = lower ..< (items.isEmpty ? 0 : rng.int(in: lower ..< items.count) + 1)
            let expected = Self.stablySorted(items, range, by: comparator)
            #expect(order.sortedPositions(of: items, range) == expected, "seed \(seed)")

            // Sorting elements by a key item: the same order, the elements moved with it.
            var elements = items.enumerated().map { (position: $0.offset, item: $0.element) }
            order.sort(&elements) { $0.item }
            #expect(elements.map { Int32($0.position) } == Self.stablySorted(items, 0 ..< items.count, by: comparator), "seed \(seed)")
        }
    }

    @Test("keyed bounds equal the section-major comparator's, with the items' < and with a given order", arguments: [false, true])
    func keyedBoundMatchesComparator(withOrder: Bool) {
        let (order, comparator) = Self.sectionMajorOrder(withOrder: withOrder)
        #expect(order.hasKeyedBound)
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 500)
            let items = Self.items(&rng)
            let elements = Self.stablySorted(items, 0 ..< items.count, by: comparator).map { items[Int($0)] }
            // Items already there (ties on both sides) and items that may not be.
            let probes = elements.prefix(20) + (0 ..< 20).map { TestRow(id: 1_000 + $0, key: rng.int(in: -1 ..< 13), payload: rng.int(in: -1 ..< 5)) }
            for item in probes {
                let low = rng.int(in: 0 ..< elements.count + 1)
                // The first element from `low` that is at or past each bound, read one by one.
                let lower = (low ..< elements.count).first { !comparator(elements[$0], item) } ?? elements.count
                let upper = (low ..< elements.count).first { comparator(item, elements[$0]) } ?? elements.count
                #expect(order.bound(of: item, .lower, in: elements, from: low) == lower, "seed \(seed), \(item) from \(low)")
                #expect(order.bound(of: item, .upper, in: elements, from: low) == upper, "seed \(seed), \(item) from \(low)")
            }
        }
    }

    @Test("a flat order without a keyed sort sorts stably through its comparator")
    func unkeyedOrderSortsStably() {
        let order = _RowOrder<TestRow>({ $0.key < $1.key })
        #expect(order.keyedSort == nil && !order.hasKeyedBound)
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed)
            let items = Self.items(&rng)
            #expect(order.sortedPositions(of: items, 0 ..< items.count) == Self.stablySorted(items, 0 ..< items.count) { $0.key < $1.key }, "seed \(seed)")
        }
    }
}

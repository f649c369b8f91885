import Foundation
import ListEngine
import ListTestSupport
import Testing

@Suite struct DataSourceItemTests {
    typealias Row = DataSourceItem<String>

    @Test("orders by index, then uid")
    func order() {
        #expect(Row(uid: "b", value: "", index: 1) < Row(uid: "a", value: "", index: 2))
        #expect(Row(uid: "a", value: "", index: 1) < Row(uid: "b", value: "", index: 1))
        #expect(!(Row(uid: "a", value: "x", index: 1) < Row(uid: "a", value: "y", index: 1)))
    }

    @Test("total order on Double matches IEEE totalOrder over random bit patterns")
    func totalOrder() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<10_000 {
            let a = Double(bitPattern: rng.next()), b = Double(bitPattern: rng.chance(0.1) ? rng.next() & ~(1 << 63) : rng.next())
            let lhs = Row(uid: "x", value: "", index: a), rhs = Row(uid: "x", value: "", index: b)
            let expected = a.bitPattern != b.bitPattern && a.isTotallyOrdered(belowOrEqualTo: b)
            #expect((lhs < rhs) == expected, "\(a) vs \(b)")
        }
    }

    @Test("equality and hashing compare the index bit for bit")
    func equality() {
        #expect(Row(uid: "a", value: "", index: .nan) == Row(uid: "a", value: "", index: .nan))
        #expect(Row(uid: "a", value: "", index: 0.0) != Row(uid: "a", value: "", index: -0.0))
        #expect(Set([Row(uid: "a", value: "", index: .nan), Row(uid: "a", value: "", index: .nan)]).count == 1)
        #expect(Row(uid: "a", value: "v", index: 1).id == "a")
    }

    @Test("an item with a codable value encodes as uid, value and index, and decodes back")
    func codable() throws {
        let decoded = try JSONDecoder().decode(
            [DataSourceItem<String>].self,
            from: Data(#"[{"uid": "p7", "value": "Ada", "index": 2.5}, {"uid": "p8", "value": "Bo", "index": -1}]"#.utf8)
        )
        #expect(decoded == [DataSourceItem(uid: "p7", value: "Ada", index: 2.5), DataSourceItem(uid: "p8", value: "Bo", index: -1)])
        let items = [DataSourceItem(uid: "a", value: [1, 2], index: -0.0), DataSourceItem(uid: "b", value: [], index: .greatestFiniteMagnitude)]
        let roundTripped = try JSONDecoder().decode([DataSourceItem<[Int]>].self, from: JSONEncoder().encode(items))
        #expect(roundTripped == items, "the index keeps its bits, -0.0 included")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DataSourceItem<String>.self, from: Data(#"{"uid": "p7", "value": "Ada"}"#.utf8))
        }
    }
}

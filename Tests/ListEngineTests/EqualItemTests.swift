import ListEngine
import ListTestSupport
import Testing

/// Adding an item whose id is present and that is equal to the stored one changes
/// nothing: the stored one stays in place, even when the two differ in what `==`
/// ignores (text spelled in another normalization form, say), on every path: one call
/// at a time, the one-pass bulk edit, and both `replaceAll` paths.
@Suite struct EqualItemTests {
    /// A row whose `==` and hash ignore `spelling`; renderers would still show it.
    struct Row: Hashable, DataSourceComparable, CustomStringConvertible {
        var id: Int
        var key: Int
        var spelling: String

        static func == (lhs: Row, rhs: Row) -> Bool { lhs.id == rhs.id && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(key)
        }
        static func < (lhs: Row, rhs: Row) -> Bool { lhs.key < rhs.key }
        var description: String { "#\(id)(\(key) \(spelling))" }
    }

    /// `count` rows with distinct keys (`10 * id`), spelled "old".
    static func rows(_ count: Int) -> [Row] {
        (0 ..< count).map { Row(id: $0, key: $0 * 10, spelling: "old") }
    }

    /// A list of `rowCount` rows (see ``rows(_:)``) with a recorder attached that has
    /// taken its attach batch.
    static func watchedList(rowCount: Int) async -> (ListDataSource<Row>, BatchRecorder<Row>) {
        let source = ListDataSource<Row>(rows(rowCount))
        let recorder = BatchRecorder<Row>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        return (source, recorder)
    }

    /// Checks that every row of `snapshot` named in `ids` is still spelled "old", read
    /// both by id and by position.
    static func expectStoredSpellings(_ snapshot: ListSnapshot<Row>, _ ids: some Sequence<Int>, _ path: Comment) {
        for id in ids {
            #expect(snapshot[id: id]?.spelling == "old", "\(path): snapshot[id: \(id)]")
            if let position = snapshot.index(of: id) {
                #expect(snapshot[position].spelling == "old", "\(path): row \(id) at \(position)")
            } else {
                Issue.record("\(path): row \(id) is missing")
            }
        }
    }

    @Test("one equal item in a call: the stored item stays and no batch is sent")
    func oneEqualItem() async {
        let (source, recorder) = await Self.watchedList(rowCount: 50)
        source.add(Row(id: 7, key: 70, spelling: "new"))
        let snapshot = await source.flush()
        #expect(recorder.take().isEmpty)
        Self.expectStoredSpellings(snapshot, [7], "add")
    }

    @Test("equal items among changes in a call large enough for one pass: the stored items stay, without reloads")
    func equalItemsInABulkEdit() async {
        let (source, recorder) = await Self.watchedList(rowCount: 2_000)
        // 40 equal items, respelled, and 40 new ones: enough named ids for the bulk edit.
        let equal = (0 ..< 40).map { Row(id: $0 * 50, key: $0 * 500, spelling: "new") }
        let fresh = (0 ..< 40).map { Row(id: 10_000 + $0, key: $0 * 500 + 5, spelling: "new") }
        source.add(equal + fresh)
        let snapshot = await source.flush()
        let batches = recorder.take()
        #expect(batches.count == 1)
        #expect(batches.first?.insertions.count == 40)
        #expect(batches.first?.reloads.isEmpty == true)
        Self.expectStoredSpellings(snapshot, equal.map(\.id), "bulk add")
    }

    @Test("an id named twice in one call with equal items keeps the first, on the one-at-a-time path and the bulk edit",
          arguments: [200, 2_000])
    func repeatedEqualItemsInOneCall(rowCount: Int) async {
        // 200 rows take the one-at-a-time path for this call (it names more than an
        // eighth of them); 2,000 take the bulk edit.
        let (source, recorder) = await Self.watchedList(rowCount: rowCount)
        var calls = (0 ..< 30).map { Row(id: 10_000 + $0, key: $0 * 60 + 5, spelling: "new") }
        // A new id, twice, equal: the second changes nothing.
        calls.append(Row(id: -1, key: 17, spelling: "first"))
        calls.append(Row(id: -1, key: 17, spelling: "second"))
        // A stored id re-keyed, then again to an equal item: the first re-key stays.
        calls.append(Row(id: 3, key: 1_003, spelling: "first"))
        calls.append(Row(id: 3, key: 1_003, spelling: "second"))
        // A stored id re-keyed, then back to an item equal to the stored one: that
        // item is not equal to the one the first call left, so it replaces it.
        calls.append(Row(id: 4, key: 1_004, spelling: "first"))
        calls.append(Row(id: 4, key: 40, spelling: "second"))
        // Equal to the stored item, then equal again: nothing changes.
        calls.append(Row(id: 5, key: 50, spelling: "first"))
        calls.append(Row(id: 5, key: 50, spelling: "second"))
        source.add(calls)
        let snapshot = await source.flush()
        var oracle = ListOracle<Row>(sortedBy: { $0 < $1 })
        oracle.add(Self.rows(rowCount))
        oracle.add(calls)
        let listed = snapshot.map(\.description), expected = oracle.rows.map(\.description)
        let firstDifference = listed.indices.first { $0 >= expected.count || listed[$0] != expected[$0] }
            ?? (listed.count == expected.count ? nil : listed.count)
        #expect(firstDifference == nil, "\(rowCount) rows: from row \(firstDifference ?? 0), \(listed.dropFirst(firstDifference ?? 0).prefix(3)) instead of \(expected.dropFirst(firstDifference ?? 0).prefix(3))")
        #expect(snapshot[id: -1]?.spelling == "first")
        #expect(snapshot[id: 3]?.spelling == "first")
        #expect(snapshot[id: 4]?.spelling == "second")
        #expect(snapshot[id: 5]?.spelling == "old")
        let batches = recorder.take()
        #expect(batches.count == 1)
        #expect(batches.first?.insertions.count == 31)
        #expect(batches.first.map { Set($0.reloads.map { snapshot[$0].id }) } == [3])
    }

    @Test("replaceAll keeping equal items, without ties and with them: the stored items stay, without reloads",
          arguments: [false, true])
    func equalItemsInReplaceAll(withTies: Bool) async {
        let (source, recorder) = await Self.watchedList(rowCount: 300)
        // Keep every other row, respelled; add new ones (tying with a kept row, or not).
        let kept = (0 ..< 150).map { Row(id: $0 * 2, key: $0 * 20, spelling: "new") }
        let fresh = (0 ..< 20).map { Row(id: 1_000 + $0, key: $0 * 20 + (withTies ? 0 : 5), spelling: "new") }
        source.replaceAll(with: kept + fresh)
        let snapshot = await source.flush()
        let batches = recorder.take()
        #expect(batches.count == 1)
        #expect(batches.first?.deletions.count == 150)
        #expect(batches.first?.insertions.count == 20)
        #expect(batches.first?.reloads.isEmpty == true)
        Self.expectStoredSpellings(snapshot, kept.map(\.id), "replaceAll")
    }

    /// A row sorted by the very text that its `==` ignores.
    struct SortedBySpelling: Hashable, DataSourceComparable {
        var id: Int
        var spelling: String

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.spelling < rhs.spelling }
    }

    @Test("replaceAll whose equal items would sort elsewhere than the stored ones keeps the stored ones where they are")
    func equalItemsThatSortElsewhere() async {
        let source = ListDataSource<SortedBySpelling>([.init(id: 1, spelling: "b"), .init(id: 2, spelling: "d"), .init(id: 3, spelling: "f")])
        // In the new spellings the items sort strictly (a, c, c2, e); with the stored
        // spellings put back they do not, and one at a time only id 4 is inserted.
        source.replaceAll(with: [.init(id: 1, spelling: "e"), .init(id: 2, spelling: "a"), .init(id: 3, spelling: "c"), .init(id: 4, spelling: "c2")])
        let snapshot = await source.flush()
        #expect(snapshot.map(\.id) == [1, 4, 2, 3])
        #expect(snapshot.map(\.spelling) == ["b", "c2", "d", "f"])
        #expect(snapshot[id: 2]?.spelling == "d")
    }

    @Test("replaceAll with only equal items changes nothing, now or in the next batch")
    func replaceAllWithOnlyEqualItems() async {
        let (source, recorder) = await Self.watchedList(rowCount: 100)
        source.replaceAll(with: Self.rows(100).map { Row(id: $0.id, key: $0.key, spelling: "new") })
        _ = await source.flush()
        #expect(recorder.take().isEmpty)
        source.add(Row(id: 500, key: 5_000, spelling: "new"))
        let snapshot = await source.flush()
        let batches = recorder.take()
        #expect(batches.count == 1 && batches.first?.insertions.count == 1 && batches.first?.reloads.isEmpty == true)
        Self.expectStoredSpellings(snapshot, 0 ..< 100, "replaceAll, then add")
    }
}

import ListEngine
import ListTestSupport
import Testing

/// Empty lists made at a version: the snapshot has it, the first batch goes one past it,
/// and everything attached or streaming gets its attach batch (from the empty version 0 to
/// the list's version) and then the versions from there.
@Suite("Starting version")
struct StartingVersionTests {
    @Test("an empty list at version 41: snapshot 41, first batch 41 → 42, then one per batch")
    func flatListStartsAtItsVersion() async {
        let list = ListDataSource<TestRow>(version: 41)
        #expect(list.snapshot.version == 41)
        #expect(list.count == 0)
        let recorder = BatchRecorder<TestRow>()
        list.attach(recorder)
        var stream = list.batches().makeAsyncIterator()
        list.add([TestRow(id: 1, key: 3), TestRow(id: 2, key: 1)])
        _ = await list.flush()
        list.remove(ids: [1])
        let flushed = await list.flush()
        #expect(flushed.version == 43)
        // The attach batch goes from the empty version 0 to the list's version, as always.
        #expect(recorder.batches.map { [$0.old.version, $0.new.version] } == [[0, 41], [41, 42], [42, 43]])
        #expect(recorder.batches.dropFirst().first?.insertions == [0, 1])
        var streamed: [[Int]] = []
        for _ in 0..<3 { if let batch = await stream.next() { streamed.append([batch.old.version, batch.new.version]) } }
        #expect(streamed == [[0, 41], [41, 42], [42, 43]])
        #expect(list.snapshot.map(\.id) == [2])
    }

    @Test("a comparator list at a version keeps its order")
    func comparatorListStartsAtItsVersion() async {
        let list = ListDataSource<TestRow>(sortedBy: { $0.key > $1.key }, version: 7)
        list.add([TestRow(id: 1, key: 1), TestRow(id: 2, key: 5)])
        let snapshot = await list.flush()
        #expect(snapshot.version == 8)
        #expect(snapshot.map(\.id) == [2, 1])
    }

    @Test("a sectioned list at version 100: sectioned batches 100 → 101, rows at the same versions")
    func sectionedListStartsAtItsVersion() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key / 10 }, version: 100)
        #expect(list.snapshot.version == 100)
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        list.attach(recorder)
        list.add([TestRow(id: 1, key: 15), TestRow(id: 2, key: 3), TestRow(id: 3, key: 12)])
        let snapshot = await list.flush()
        #expect(snapshot.version == 101)
        #expect(recorder.batches.map { [$0.old.version, $0.new.version] } == [[0, 100], [100, 101]])
        #expect(recorder.batches.last?.rows.new.version == 101)
        #expect(snapshot.sections.map(\.key) == [0, 1])
        #expect(list.rows.snapshot.map(\.id) == [2, 3, 1])

        let sorted = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key / 10 }, sortedBy: { $0.key > $1.key }, version: 3)
        sorted.add([TestRow(id: 1, key: 11), TestRow(id: 2, key: 15)])
        let descending = await sorted.flush()
        #expect(descending.version == 4)
        #expect(sorted.rows.snapshot.map(\.id) == [2, 1])
    }

    @Test("version 0 is the ordinary empty list")
    func versionZeroIsTheDefault() async {
        let list = ListDataSource<TestRow>(version: 0)
        list.add([TestRow(id: 1, key: 1)])
        #expect(await list.flush().version == 1)
    }
}

import ListEngine
import ListTestSupport
import Testing

/// The T21TableViewDataSource README examples, and the batch that corrupts T21.
@Suite struct GoldenTests {
    typealias Row = DataSourceItem<String>

    /// `[A(1), B(2), C(3)]` (titled "a", "b", "c", or untitled) with a recorder attached
    /// and its attach batch already taken.
    func watchedABC(titled: Bool) async -> (ListDataSource<Row>, BatchRecorder<Row>) {
        let rows = [("A", 1.0), ("B", 2.0), ("C", 3.0)].map { uid, index in
            Row(uid: uid, value: titled ? uid.lowercased() : "", index: index)
        }
        let source = ListDataSource<Row>(rows)
        let recorder = BatchRecorder<Row>()
        source.attach(recorder)
        _ = await settled(source, recorder)
        return (source, recorder)
    }

    func settled(_ source: ListDataSource<Row>, _ recorder: BatchRecorder<Row>) async -> [ChangeBatch<Row>] {
        _ = await source.flush()
        return recorder.take()
    }

    @Test("add B, A, C gives A, B, C")
    func addSorts() async {
        let source = ListDataSource<Row>()
        let recorder = BatchRecorder<Row>()
        source.attach(recorder)
        source.add([Row(uid: "B", value: "b", index: 2), Row(uid: "A", value: "a", index: 1), Row(uid: "C", value: "c", index: 3)])
        let batches = await settled(source, recorder)
        #expect(source.snapshot.map(\.uid) == ["A", "B", "C"])
        #expect(batches.last?.insertions == [0, 1, 2])
        #expect(batches.last?.version == 1)
    }

    @Test("updating C's title is one reload and no move")
    func contentUpdateReloads() async {
        let (source, recorder) = await watchedABC(titled: true)
        source.add(Row(uid: "C", value: "C, retitled", index: 3))
        let batches = await settled(source, recorder)
        #expect(batches.count == 1)
        #expect(batches.first?.reloads == [2])
        #expect(batches.first?.moves == [])
        #expect(batches.first?.deletions == [] && batches.first?.insertions == [])
        #expect(source[2].value == "C, retitled")
    }

    @Test("moving C's index to 0.5 moves C to the top")
    func rekeyMoves() async {
        let (source, recorder) = await watchedABC(titled: true)
        source.add(Row(uid: "C", value: "c", index: 0.5))
        let batches = await settled(source, recorder)
        #expect(source.snapshot.map(\.uid) == ["C", "A", "B"])
        #expect(batches.first?.moves == [ListMove(from: 2, to: 0)])
        #expect(batches.first?.reloads == [0])
        #expect(batches.first?.steps == [.move(from: 2, to: 0), .reload(Row(uid: "C", value: "c", index: 0.5), at: 0)])
    }

    @Test("[A(1), B(2), C(3)] + C(1.5) gives [A, C, B] with exactly one move")
    func theCaseThatCorruptsT21() async {
        let (source, recorder) = await watchedABC(titled: false)
        source.add(Row(uid: "C", value: "", index: 1.5))
        let batches = await settled(source, recorder)
        #expect(source.snapshot.map(\.uid) == ["A", "C", "B"])
        #expect(batches.count == 1)
        #expect(batches.first?.moves == [ListMove(from: 2, to: 1)])
        var rows = Array(batches[0].old)
        batches[0].apply(to: &rows)
        #expect(rows.map(\.uid) == ["A", "C", "B"])
    }

    @Test("ties keep arrival order; an update that still fits stays in place")
    func tiesAndInPlaceUpdates() async {
        let source = ListDataSource<TestRow>()
        source.add([TestRow(id: 1, key: 5), TestRow(id: 2, key: 5), TestRow(id: 3, key: 5)])
        #expect(await source.flush().map(\.id) == [1, 2, 3])
        source.add(TestRow(id: 4, key: 5))
        #expect(await source.flush().map(\.id) == [1, 2, 3, 4])
        // #1 re-keyed to 5 → equal item, nothing; to 4 → still fits first → in place.
        source.add(TestRow(id: 1, key: 4))
        #expect(await source.flush().map(\.id) == [1, 2, 3, 4])
        // #2 re-keyed to 6 no longer fits before #3 → moves to its upper bound (the end).
        source.add(TestRow(id: 2, key: 6))
        #expect(await source.flush().map(\.id) == [1, 3, 4, 2])
    }

    @Test("a repeated id in one call: the last one wins, placed as if added one at a time")
    func lastWins() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1), TestRow(id: 2, key: 5), TestRow(id: 3, key: 10)])
        // One at a time: X(1) goes after #1; X(5) then fits between #1 and #2 → stays there.
        source.add([TestRow(id: 9, key: 1), TestRow(id: 9, key: 5)])
        let rows = await source.flush()
        #expect(rows.map(\.id) == [1, 9, 2, 3])
        #expect(rows[id: 9]?.key == 5)
    }

    @Test("mutations that change nothing deliver no batch and keep the version")
    func noOps() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        let before = await source.flush()
        _ = recorder.take()
        source.add(TestRow(id: 1, key: 1))
        source.remove(ids: [42])
        source.sort(by: { $0.key < $1.key })
        let after = await source.flush()
        #expect(recorder.take().isEmpty)
        #expect(after.version == before.version)
    }

    @Test("replaceAll removes missing ids and adds the rest in one batch")
    func replaceAll() async {
        let source = ListDataSource<TestRow>((0..<5).map { TestRow(id: $0, key: $0) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        source.replaceAll(with: [TestRow(id: 4, key: 4), TestRow(id: 1, key: 1, payload: 7), TestRow(id: 9, key: 0)])
        let rows = await source.flush()
        #expect(rows.map(\.id) == [9, 1, 4])
        let batch = recorder.take()
        #expect(batch.count == 1)
        #expect(batch.first?.deletions == [0, 2, 3])
        #expect(batch.first?.insertions == [0])
        #expect(batch.first?.reloads == [1])
        #expect(batch.first?.moves == [])
    }

    @Test("sort(by:) reverses with the minimum number of moves and orders later adds")
    func resort() async {
        let source = ListDataSource<TestRow>((0..<6).map { TestRow(id: $0, key: $0) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        source.sort(by: { $0.key > $1.key })
        source.add(TestRow(id: 10, key: 3))
        let rows = await source.flush()
        #expect(rows.map(\.id) == [5, 4, 3, 10, 2, 1, 0])
        let moves = recorder.batches.reduce(0) { $0 + $1.moves.count }
        #expect(moves == 5)  // reversing 6 rows keeps exactly one in place
    }
}

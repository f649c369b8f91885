import Dispatch
import ListEngine
import ListTestSupport
import Testing

@Suite(.cpuBound) struct BadInputTests {
    typealias Row = DataSourceItem<Int>

    @Test("NaN, infinite and signed-zero indices sort totally and never crash")
    func specialDoubles() async {
        let values: [Double] = [.nan, -.nan, .infinity, -.infinity, 0.0, -0.0, 1, -1, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        let source = ListDataSource<Row>()
        var rng = SplitMix64(seed: 7)
        for round in 0..<20 {
            source.add((0..<8).map { _ in
                Row(uid: "u\(rng.int(in: 0..<12))", value: round, index: values[rng.int(in: 0..<values.count)])
            })
        }
        let rows = await source.flush()
        #expect(Set(rows.map(\.uid)).count == rows.count)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0 < $1 })
        let negativeZero = Row(uid: "a", value: 0, index: -0.0), positiveZero = Row(uid: "a", value: 0, index: 0.0)
        #expect(negativeZero < positiveZero && negativeZero != positiveZero)
        #expect(Row(uid: "a", value: 0, index: .infinity) < Row(uid: "a", value: 0, index: .nan))
        #expect(Row(uid: "a", value: 0, index: -.nan) < Row(uid: "a", value: 0, index: -.infinity))
        let nan = Row(uid: "n", value: 1, index: .nan)
        #expect(nan == nan)
    }

    @Test("re-adding an item with a NaN index is a no-op")
    func nanReAdd() async {
        let source = ListDataSource<Row>([Row(uid: "n", value: 1, index: .nan)])
        let recorder = BatchRecorder<Row>()
        source.attach(recorder)
        _ = await source.flush()
        source.add(Row(uid: "n", value: 1, index: .nan))
        _ = await source.flush()
        #expect(recorder.batches.count == 1)  // only the attach batch
    }

    /// A row whose id is a `Double`: a NaN id is not equal to itself, which breaks
    /// `Hashable`, so no lookup by id ever finds it.
    struct FloatIDRow: Hashable, DataSourceComparable, CustomStringConvertible {
        var id: Double
        var key: Int
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.key < rhs.key }
        var description: String { "\(id)@\(key)" }
        /// What the row is, bit for bit, for comparisons that `==` cannot make.
        var bits: [UInt64] { [id.bitPattern, UInt64(bitPattern: Int64(key))] }
    }

    @Test("rows whose id is not equal to itself (a NaN) are never found by id, and batches with moves beside them still apply",
          arguments: [200, 2_000])
    func nonReflexiveIDs(rowCount: Int) async {
        #if !LIST_INTERNAL_CHECKS  // checked builds trap on an id that is not equal to itself, as on any broken `Hashable`
        let rows = (0 ..< rowCount).map { FloatIDRow(id: Double($0), key: $0 * 10) }
        let source = ListDataSource<FloatIDRow>(rows + [FloatIDRow(id: .nan, key: 55), FloatIDRow(id: .nan, key: 1_005)])
        let recorder = BatchRecorder<FloatIDRow>()
        source.attach(recorder)
        _ = await source.flush()
        // A re-keyed row lands right after a NaN row, which stays where it is: the steps
        // must find that row's place without finding it by id.
        source.add(FloatIDRow(id: 12, key: 56))
        _ = await source.flush()
        // The same for 40 rows at once (a bulk edit in the larger list).
        source.add((0 ..< 40).map { FloatIDRow(id: Double(3 + $0 * 5), key: 1_006 + $0) })
        _ = await source.flush()
        // Adding a NaN id cannot find the stored ones: a third row; removing finds nothing.
        source.add(FloatIDRow(id: .nan, key: 57))
        source.remove(ids: [.nan])
        let snapshot = await source.flush()
        #expect(snapshot.count == rowCount + 3)
        #expect(snapshot.filter(\.id.isNaN).map(\.key) == [55, 57, 1_005])
        #expect(zip(snapshot, snapshot.dropFirst()).allSatisfy { !($1 < $0) })
        for batch in recorder.batches {
            var replayed = Array(batch.old)
            batch.apply(to: &replayed)
            let mismatch = replayed.indices.first { $0 >= batch.new.count || replayed[$0].bits != batch.new[$0].bits }
            #expect(replayed.count == batch.new.count && mismatch == nil,
                    "version \(batch.version): from row \(mismatch ?? 0), \(replayed.dropFirst(mismatch ?? 0).prefix(4)) instead of \(batch.new.dropFirst(mismatch ?? 0).prefix(4)); -\(batch.deletions) +\(batch.insertions) ~\(batch.moves.prefix(6))")
        }
        #endif
    }

    @Test("a comparator with random answers loses and duplicates nothing; batches still apply", arguments: 0..<20)
    func randomComparator(seed: UInt64) async {
        let coin = LockedState(SplitMix64(seed: seed))
        let source = ListDataSource<TestRow>(sortedBy: { _, _ in coin.withLock { $0.chance(0.5) } })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        var rng = SplitMix64(seed: seed &+ 99)
        var expected: [Int: TestRow] = [:]
        for _ in 0..<60 {
            if rng.chance(0.3) {
                let ids = (0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<25) }
                source.remove(ids: ids)
                for id in ids { expected[id] = nil }
            } else if rng.chance(0.05) {
                source.sort(by: { _, _ in coin.withLock { $0.chance(0.5) } })
            } else {
                let items = (0..<rng.int(in: 1..<5)).map { _ in TestRow(id: rng.int(in: 0..<25), key: rng.int(in: 0..<5), payload: rng.int(in: 0..<3)) }
                source.add(items)
                for item in items { expected[item.id] = item }
            }
            if rng.chance(0.3) { _ = await source.flush() }
        }
        let rows = await source.flush()
        Self.expect(rows, holdExactly: expected, replayedBy: recorder, context: "seed \(seed)")
        #if LIST_INTERNAL_CHECKS
        #expect(source._orderViolationCount > 0, "internal checks flag the unsorted rows")
        #else
        #expect(source._orderViolationCount == 0)
        #endif
    }

    @Test("a comparator with random answers, with calls large enough for one-pass edits: nothing lost or duplicated", arguments: 0..<6)
    func randomComparatorLargeCalls(seed: UInt64) async {
        let coin = LockedState(SplitMix64(seed: seed &+ 500))
        let initial = (0..<2_000).map { TestRow(id: $0, key: $0) }
        let source = ListDataSource<TestRow>(initial, sortedBy: { _, _ in coin.withLock { $0.chance(0.5) } })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        var rng = SplitMix64(seed: seed &+ 600)
        var expected = Dictionary(uniqueKeysWithValues: initial.map { ($0.id, $0) })
        for _ in 0..<12 {
            if rng.chance(0.3) {
                let ids = (0..<rng.int(in: 32..<200)).map { _ in rng.int(in: 0..<2_500) }
                source.remove(ids: ids)
                for id in ids { expected[id] = nil }
            } else {
                let items = (0..<rng.int(in: 32..<200)).map { _ in TestRow(id: rng.int(in: 0..<2_500), key: rng.int(in: 0..<5_000), payload: rng.int(in: 0..<3)) }
                source.add(items)
                for item in items { expected[item.id] = item }
            }
            _ = await source.flush()
        }
        let rows = await source.flush()
        Self.expect(rows, holdExactly: expected, replayedBy: recorder, context: "seed \(seed)")
    }

    /// Records an issue unless `rows` holds exactly the `expected` item for each id, the
    /// recorder's batches replay to them, and every batch after the attach batch applies.
    static func expect(_ rows: ListSnapshot<TestRow>, holdExactly expected: [Int: TestRow], replayedBy recorder: BatchRecorder<TestRow>, context: String) {
        #expect(rows.count == expected.count, "\(context)")
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) }) == expected, "\(context)")
        #expect(recorder.replayedRows() == Array(rows), "\(context)")
        for batch in recorder.batches.dropFirst() {
            expectInvariants(batch, context: context)
        }
    }

    @Test("an offset out of range is a precondition failure that names the offset and the range")
    func offsetOutOfRange() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = ListDataSource((0..<3).map { DataSourceItem(uid: "u\($0)", value: $0, index: Double($0)) })
            let snapshot = await source.flush()
            _ = snapshot[5]
        }
        #if DEBUG  // optimized builds drop precondition messages
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("snapshot offset 5 out of range 0..<3"), "\(message)")
        #endif
    }
}

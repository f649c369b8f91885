import Dispatch
import ListEngine
import ListTestSupport
import Synchronization
import Testing

/// Random mutation sequences, checked batch by batch against the slow oracle.
@Suite(.cpuBound) struct ListDataSourcePropertyTests {
    static let seedCount: UInt64 = 2_000

    /// One random call, applied to both the engine and the oracle.
    static func randomMutation(
        _ rng: inout SplitMix64,
        oracle: inout ListOracle<TestRow>,
        source: ListDataSource<TestRow>,
        idPool: Int
    ) -> String {
        func randomRow(_ rng: inout SplitMix64) -> TestRow {
            let id = rng.int(in: 0..<idPool)
            if let existing = oracle.rows.first(where: { $0.id == id }), rng.chance(0.6) {
                switch rng.int(in: 0..<3) {
                case 0: return existing  // equal re-add
                case 1: return TestRow(id: id, key: existing.key, payload: existing.payload + 1)  // content-only
                default: return TestRow(id: id, key: rng.int(in: 0..<6), payload: existing.payload)  // re-keyed
                }
            }
            return TestRow(id: id, key: rng.int(in: 0..<6), payload: rng.int(in: 0..<3))
        }
        switch rng.int(in: 0..<100) {
        case 0..<55:
            var items = (0..<rng.int(in: 1..<6)).map { _ in randomRow(&rng) }
            if rng.chance(0.2), let first = items.first {  // duplicate id in one call
                items.append(TestRow(id: first.id, key: rng.int(in: 0..<6), payload: rng.int(in: 0..<3)))
            }
            oracle.add(items)
            source.add(items)
            return "add \(items)"
        case 55..<80:
            let ids = (0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<(idPool + 5)) }  // some unknown
            oracle.remove(ids: ids)
            source.remove(ids: ids)
            return "remove \(ids)"
        case 80..<83:
            oracle.removeAll()
            source.removeAll()
            return "removeAll"
        case 83..<92:
            let items = oracle.rows.filter { _ in rng.chance(0.7) }.map {
                rng.chance(0.3) ? TestRow(id: $0.id, key: rng.int(in: 0..<6), payload: $0.payload) : $0
            } + (0..<rng.int(in: 0..<4)).map { _ in randomRow(&rng) }
            let shuffled = items.shuffled(using: &rng)
            oracle.replaceAll(with: shuffled)
            source.replaceAll(with: shuffled)
            return "replaceAll \(shuffled)"
        case 92..<95:
            // Read-modify-write on the diff queue; some ids absent, one sometimes twice.
            var ids = (0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<(idPool + 3)) }
            if rng.chance(0.2), let first = ids.first { ids.append(first) }
            let newKey = rng.chance(0.5) ? rng.int(in: 0..<6) : nil
            let change: @Sendable (inout TestRow) -> Void = { row in
                row.payload += 1
                if let newKey { row.key = newKey }
            }
            oracle.update(ids: ids, change)
            if ids.count == 1 { source.update(id: ids[0], change) } else { source.update(ids: ids, change) }
            return "update \(ids) payload+1\(newKey.map { ", key \($0)" } ?? "")"
        case 95..<97:
            let key = rng.int(in: 0..<6), parity = rng.int(in: 0..<2)
            let predicate: @Sendable (TestRow) -> Bool = { $0.key == key && $0.id % 2 == parity }
            oracle.remove(where: predicate)
            source.remove(where: predicate)
            return "remove(where: key == \(key) && id % 2 == \(parity))"
        default:
            let order = TestOrder.allCases[rng.int(in: 0..<TestOrder.allCases.count)]
            oracle.sort(by: order.comparator)
            source.sort(by: order.comparator)
            return "sort(\(order))"
        }
    }

    /// Records an issue unless `batches` is the one batch the oracle expects (none for a
    /// no-op), with the minimum number of moves, no untouched row moved, and the invariants
    /// holding. Returns `false` when the number of batches is wrong.
    @discardableResult
    static func expect(_ batches: [ChangeBatch<TestRow>], toMatch expected: ListOracle<TestRow>.ExpectedBatch, context: String) -> Bool {
        if expected.isEmpty {
            #expect(batches.isEmpty, "no-op delivered a batch — \(context)")
            return batches.isEmpty
        }
        guard batches.count == 1, let batch = batches.first else {
            Issue.record("expected one batch, got \(batches.count) — \(context)")
            return false
        }
        #expect(batch.deletions == expected.deletions, "\(context)")
        #expect(batch.insertions == expected.insertions, "\(context)")
        #expect(batch.reloads == expected.reloads, "\(context)")
        #expect(batch.moves.count == expected.minimumMoves, "moves \(batch.moves) — \(context)")
        #expect(batch.version == batch.old.version + 1, "\(context)")
        if let movable = expected.movable {
            for move in batch.moves {
                #expect(movable.contains(batch.old[move.from].id), "untouched row moved — \(context)")
            }
        }
        expectInvariants(batch, context: context)
        return true
    }

    @Test("each call's batch equals the oracle's, with the minimum number of moves")
    func batchesMatchOracle() async throws {
        for seed in 0..<Self.seedCount {
            var rng = SplitMix64(seed: seed)
            let order = TestOrder.allCases[rng.int(in: 0..<2)]
            // Key ascending is also the rows' `<`: every other such seed uses the list's
            // own order instead of the same order given as a comparator.
            let source = order == .keyAscending && seed % 2 == 0
                ? ListDataSource<TestRow>()
                : ListDataSource<TestRow>(sortedBy: order.comparator)
            var oracle = ListOracle<TestRow>(sortedBy: order.comparator)
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            _ = await source.flush()
            _ = recorder.take()  // the attach batch
            var log: [String] = []
            for _ in 0..<rng.int(in: 4..<16) {
                oracle.beginBatch()
                log.append(Self.randomMutation(&rng, oracle: &oracle, source: source, idPool: rng.chance(0.5) ? 8 : 30))
                let snapshot = await source.flush()
                let expected = oracle.expectedBatch()
                let batches = recorder.take()
                let context = "seed \(seed): \(log.joined(separator: "; "))"
                #expect(Array(snapshot) == oracle.rows, "\(context)")
                guard Self.expect(batches, toMatch: expected, context: context) else { return }
            }
        }
    }

    @Test("large calls on a longer list (applied in one pass) give the oracle's batches, with and without ties")
    func largeCallsMatchOracle() async throws {
        for seed in UInt64(0)..<80 {
            var rng = SplitMix64(seed: seed &+ 2_000_000)
            let keys = seed % 2 == 0 ? 1_000_000 : 40  // almost no ties, or many
            let rows = (0..<600).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }
            let source = ListDataSource<TestRow>(rows)
            var oracle = ListOracle<TestRow>(sortedBy: { $0 < $1 })
            oracle.add(rows)
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            _ = await source.flush()
            _ = recorder.take()  // the attach batch
            for step in 0..<4 {
                oracle.beginBatch()
                let call: String
                if step % 3 == 2 {
                    let ids = (0..<rng.int(in: 32..<70)).map { _ in rng.int(in: 0..<700) }  // some unknown, some repeated
                    oracle.remove(ids: ids)
                    source.remove(ids: ids)
                    call = "remove \(ids)"
                } else {
                    let items = Self.randomItems(&rng, oracle: oracle, count: rng.int(in: 32..<70), idPool: 700, keys: keys)
                    oracle.add(items)
                    source.add(items)
                    call = "add \(items)"
                }
                let snapshot = await source.flush()
                let expected = oracle.expectedBatch()
                let batches = recorder.take()
                let context = "seed \(seed) step \(step): \(call)"
                #expect(Array(snapshot) == oracle.rows, "\(context)")
                Self.expect(batches, toMatch: expected, context: context)
            }
        }
    }

    @Test("coalesced calls: final rows equal the oracle, every batch satisfies the invariants")
    func coalescedBatches() async throws {
        for seed in 0..<Self.seedCount {
            var rng = SplitMix64(seed: seed &+ 1_000_000)
            let source = ListDataSource<TestRow>()
            var oracle = ListOracle<TestRow>(sortedBy: { $0 < $1 })
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            var log: [String] = []
            for _ in 0..<rng.int(in: 4..<20) {
                log.append(Self.randomMutation(&rng, oracle: &oracle, source: source, idPool: 20))
            }
            let snapshot = await source.flush()
            let context = "seed \(seed): \(log.joined(separator: "; "))"
            #expect(Array(snapshot) == oracle.rows, "\(context)")
            #expect(recorder.replayedRows() == oracle.rows, "\(context)")
            var version = recorder.batches.first?.version ?? 0
            for batch in recorder.batches.dropFirst() {
                #expect(batch.version == version + 1, "version gap — \(context)")
                version = batch.version
                expectInvariants(batch, context: context)
            }
        }
    }

    /// Items for a coalesced run: new ids, equal re-adds, content-only changes and
    /// re-keyed rows, about as many of each as the pool allows.
    static func randomItems(_ rng: inout SplitMix64, oracle: ListOracle<TestRow>, count: Int, idPool: Int, keys: Int) -> [TestRow] {
        (0..<count).map { _ -> TestRow in
            let id = rng.int(in: 0..<idPool)
            guard let existing = oracle.rows.first(where: { $0.id == id }), rng.chance(0.7) else {
                return TestRow(id: id, key: rng.int(in: 0..<keys))
            }
            switch rng.int(in: 0..<3) {
            case 0: return existing
            case 1: return TestRow(id: id, key: existing.key, payload: existing.payload + 1)
            default: return TestRow(id: id, key: rng.int(in: 0..<keys), payload: existing.payload)
            }
        }
    }

    /// Several `add` and `remove` calls held back and then taken by one drain: the one
    /// batch they make is the oracle's (same deletions, insertions and reloads, the
    /// fewest moves, none of an untouched row), on lists large enough for the one-pass
    /// bulk edit, with and without ties.
    ///
    /// Seeds from 40 on use 3,000 rows and runs naming about 300 ids: enough for the
    /// bulk edit to cut each pass in two and run the halves on two threads.
    @Test("coalesced runs of calls give the oracle's batch, with minimal moves", arguments: 0..<46)
    func coalescedRunsMatchTheOracle(seed: UInt64) async {
        var rng = SplitMix64(seed: seed &+ 7_000)
        let isLarge = seed >= 40
        let rowCount = isLarge ? 3_000 : 800, idPool = isLarge ? 3_400 : 900
        let callSizes = isLarge ? 90..<120 : 10..<40, callCounts = isLarge ? 3..<4 : 2..<5
        let keys = seed % 2 == 0 ? 1_000_000 : rowCount / 4  // almost no ties, or many
        let initial = (0..<rowCount).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }
        let less: @Sendable (TestRow, TestRow) -> Bool = { $0.key < $1.key }
        // The same order as the rows' `<`: half the seeds give it as a comparator.
        let source = seed % 4 < 2 ? ListDataSource<TestRow>(initial, sortedBy: less) : ListDataSource<TestRow>(initial)
        var oracle = ListOracle<TestRow>(sortedBy: less)
        oracle.add(initial)
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        for round in 0..<3 {
            // Hold the diff queue inside a re-sort to the same order (which makes no
            // batch), so that every call below is taken by the next drain.
            let hold = DiffQueueHold()
            source.sort(by: { hold.holdOnce(); return $0.key < $1.key })
            hold.entered.wait()
            oracle.beginBatch()
            var log: [String] = []
            for _ in 0..<rng.int(in: callCounts) {
                if rng.chance(0.3) {
                    let ids = (0..<rng.int(in: callSizes)).map { _ in rng.int(in: 0..<idPool) }
                    oracle.remove(ids: ids)
                    source.remove(ids: ids)
                    log.append("remove \(ids)")
                } else {
                    let items = Self.randomItems(&rng, oracle: oracle, count: rng.int(in: callSizes), idPool: idPool, keys: keys)
                    oracle.add(items)
                    source.add(items)
                    log.append("add \(items)")
                }
            }
            hold.release.signal()
            let snapshot = await source.flush()
            let batches = recorder.take()
            let expected = oracle.expectedBatch()
            let context = "seed \(seed) round \(round): \(log.joined(separator: "; "))"
            #expect(Array(snapshot) == oracle.rows, "rows differ — \(context)")
            guard batches.count == 1, let batch = batches.first else {
                #expect(expected.isEmpty && batches.isEmpty, "expected one batch, got \(batches.count) — \(context)")
                continue
            }
            #expect(batch.deletions == expected.deletions, "deletions — \(context)")
            #expect(batch.insertions == expected.insertions, "insertions — \(context)")
            #expect(batch.reloads == expected.reloads, "reloads — \(context)")
            #expect(batch.moves.count == expected.minimumMoves, "\(batch.moves.count) moves, minimum \(expected.minimumMoves) — \(context)")
            if let movable = expected.movable {
                for move in batch.moves {
                    #expect(movable.contains(batch.old[move.from].id), "an untouched row moved — \(context)")
                }
            }
            expectInvariants(batch, context: context)
        }
    }
}

/// Checks invariants 1 and 4 (`Sources/ListEngine/ListEngine.docc/Semantics.md`) on a delivered batch.
func expectInvariants<Item>(_ batch: ChangeBatch<Item>, context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let oldRows = Array(batch.old), newRows = Array(batch.new)
    // Invariant 1, set form.
    var rows = oldRows
    let removals = (batch.deletions + batch.moves.map(\.from)).sorted(by: >)
    for offset in removals { rows.remove(at: offset) }
    let additions = (batch.insertions.map { ($0, newRows[$0]) } + batch.moves.map { ($0.to, oldRows[$0.from]) }).sorted { $0.0 < $1.0 }
    for (offset, item) in additions { rows.insert(item, at: offset) }
    for offset in batch.reloads { rows[offset] = newRows[offset] }
    #expect(rows == newRows, "sets do not apply — \(context)", sourceLocation: sourceLocation)
    // Invariant 1, steps.
    var stepped = oldRows
    batch.apply(to: &stepped)
    #expect(stepped == newRows, "steps do not apply — \(context)", sourceLocation: sourceLocation)
    #expect(batch.steps.count == batch.deletions.count + batch.insertions.count + batch.moves.count + batch.reloads.count, sourceLocation: sourceLocation)
    // Invariant 4 (sortedness is covered by comparing with the oracle's rows).
    #expect(Set(newRows.map(\.id)).count == newRows.count, "duplicate id — \(context)", sourceLocation: sourceLocation)
    #expect(batch.deletions == batch.deletions.sorted() && batch.insertions == batch.insertions.sorted() && batch.reloads == batch.reloads.sorted(), sourceLocation: sourceLocation)
}

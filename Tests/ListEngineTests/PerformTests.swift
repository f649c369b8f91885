import ListEngine
import ListTestSupport
import Synchronization
import Testing

/// `perform(_:)` with `ListEdits`: several edits decided on the latest state, one batch.
@Suite("perform")
struct PerformTests {
    /// One edit of a random script, made the same way on the list's `ListEdits` and on
    /// the oracle; the reads compare the two.
    enum Edit: Sendable, CustomStringConvertible {
        case add([TestRow])
        case remove([Int])
        case removeWhere(keyBelow: Int)
        case update(id: Int, key: Int)
        case readCount
        case readOffset(Int)
        case readID(Int)

        var description: String {
            switch self {
            case .add(let rows): "add \(rows)"
            case .remove(let ids): "remove \(ids)"
            case .removeWhere(let key): "remove where key < \(key)"
            case .update(let id, let key): "update #\(id) key \(key)"
            case .readCount: "count"
            case .readOffset(let offset): "[\(offset)]"
            case .readID(let id): "offset of #\(id)"
            }
        }

        static func random(_ rng: inout SplitMix64, idPool: Int) -> Edit {
            func row() -> TestRow { TestRow(id: rng.int(in: 0..<idPool), key: rng.int(in: 0..<6), payload: rng.int(in: 0..<3)) }
            switch rng.int(in: 0..<10) {
            case 0, 1, 2: return .add((0..<rng.int(in: 1..<5)).map { _ in row() })
            case 3, 4: return .remove((0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<idPool) })
            case 5: return .removeWhere(keyBelow: rng.int(in: 0..<2))
            case 6: return .update(id: rng.int(in: 0..<idPool), key: rng.int(in: 0..<6))
            case 7: return .readCount
            case 8: return .readOffset(rng.int(in: 0..<idPool))
            default: return .readID(rng.int(in: 0..<idPool))
            }
        }
    }

    /// The oracle and what the reads inside a `perform` found, shared with its closure.
    final class Model: Sendable {
        let state: Mutex<(oracle: ListOracle<TestRow>, mismatches: [String])>

        init() {
            state = Mutex((ListOracle(sortedBy: { $0.key < $1.key }), []))
        }

        /// Makes `script` on `edits` and on the oracle.
        func play(_ script: [Edit], on edits: inout ListEdits<TestRow>) {
            state.withLock { state in
                for (step, edit) in script.enumerated() {
                    switch edit {
                    case .add(let rows):
                        edits.add(rows)
                        state.oracle.add(rows)
                    case .remove(let ids):
                        edits.remove(ids: ids)
                        state.oracle.remove(ids: ids)
                    case .removeWhere(let key):
                        edits.remove { $0.key < key }
                        state.oracle.remove { $0.key < key }
                    case .update(let id, let key):
                        edits.update(id: id) { $0.key = key }
                        state.oracle.update(ids: [id]) { $0.key = key }
                    case .readCount:
                        let count = edits.count
                        if count != state.oracle.rows.count {
                            state.mismatches.append("step \(step): count \(count), oracle \(state.oracle.rows.count)")
                        }
                    case .readOffset(let offset):
                        guard offset < state.oracle.rows.count else { continue }
                        let row = edits[offset: offset]
                        if row != state.oracle.rows[offset] {
                            state.mismatches.append("step \(step): [\(offset)] \(row), oracle \(state.oracle.rows[offset])")
                        }
                    case .readID(let id):
                        let offset = edits.offset(of: id)
                        let expected = state.oracle.rows.firstIndex { $0.id == id }
                        if offset != expected {
                            state.mismatches.append("step \(step): offset of #\(id) \(String(describing: offset)), oracle \(String(describing: expected))")
                        }
                    }
                }
            }
        }
    }

    static let seedCount = propertySeedCount(default: 300)

    @Test("each perform is one batch equal to the oracle's, and reads inside it see the edits so far")
    func performsMatchOracle() async {
        for seed in 0..<Self.seedCount {
            var rng = SplitMix64(seed: seed &+ 7_000_000)
            let idPool = rng.chance(0.5) ? 8 : 30
            let source = ListDataSource<TestRow>()
            let model = Model()
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            // Rows to start from, then performs.
            let start = (0..<rng.int(in: 0..<20)).map { _ in TestRow(id: rng.int(in: 0..<idPool), key: rng.int(in: 0..<6)) }
            source.add(start)
            model.state.withLock { $0.oracle.add(start) }
            _ = await source.flush()
            _ = recorder.take()
            var log: [String] = []
            for _ in 0..<rng.int(in: 2..<8) {
                let script = (0..<rng.int(in: 1..<10)).map { _ in Edit.random(&rng, idPool: idPool) }
                log.append("perform { \(script.map(\.description).joined(separator: ", ")) }")
                model.state.withLock { $0.oracle.beginBatch() }
                source.perform { edits in model.play(script, on: &edits) }
                let snapshot = await source.flush()
                let batches = recorder.take()
                let context = "seed \(seed): \(log.joined(separator: "; "))"
                let matches = model.state.withLock { state -> Bool in
                    let expected = state.oracle.expectedBatch()
                    #expect(state.mismatches.isEmpty, "reads inside perform: \(state.mismatches) — \(context)")
                    #expect(Array(snapshot) == state.oracle.rows, "\(context)")
                    #expect(batches.count == (expected.isEmpty ? 0 : 1), "\(batches.count) batches for one perform — \(context)")
                    return state.mismatches.isEmpty && ListDataSourcePropertyTests.expect(batches, toMatch: expected, context: context)
                }
                guard matches else { return }
            }
        }
    }

    @Test("a page and the rows dropped past a bound arrive as one batch that is never over the bound")
    func pageAndTrimInOneBatch() async {
        let list = ListDataSource<TestRow>((0..<8).map { TestRow(id: $0, key: $0) })
        let recorder = BatchRecorder<TestRow>()
        list.attach(recorder)
        _ = await list.flush()
        _ = recorder.take()
        let page = (8..<12).map { TestRow(id: $0, key: $0) }
        let bound = 10
        list.perform { edits in
            edits.add(page)
            var dropped: [Int] = []
            for offset in 0 ..< max(0, edits.count - bound) { dropped.append(edits[offset: offset].id) }
            edits.remove(ids: dropped)
        }
        let snapshot = await list.flush()
        let batches = recorder.take()
        #expect(snapshot.map(\.id) == Array(2..<12))
        #expect(batches.count == 1 && batches[0].insertions.count == 4 && batches[0].deletions.count == 2)
        #expect(batches.allSatisfy { $0.new.count <= bound })
        #expect(snapshot.version == 2)
    }

    @Test("move these, delete those: one version")
    func moveTheseDeleteThose() async {
        let list = ListDataSource<TestRow>((0..<5).map { TestRow(id: $0, key: $0 * 10) })
        let recorder = BatchRecorder<TestRow>()
        list.attach(recorder)
        let before = await list.flush()
        _ = recorder.take()
        let pinned = [3, 4], deleted = [0]
        list.perform { edits in
            for id in pinned { edits.update(id: id) { $0.key = -1 } }
            edits.remove(ids: deleted)
        }
        let after = await list.flush()
        let batches = recorder.take()
        #expect(after.map(\.id) == [3, 4, 1, 2])
        #expect(after.version == before.version + 1)
        #expect(batches.count == 1 && batches[0].moves.count == 2 && batches[0].deletions == [0])
    }

    @Test("a sectioned list's perform is one sectioned batch")
    func sectionedPerform() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key / 10 })
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        list.attach(recorder)
        list.add((0..<6).map { TestRow(id: $0, key: $0 * 5) })
        _ = await list.flush()
        _ = recorder.take()
        list.perform { edits in
            edits.add([TestRow(id: 10, key: 1)])
            edits.remove(where: { $0.key >= 20 })
            edits.update(id: 1) { $0.key = 19 }
        }
        let snapshot = await list.flush()
        let batches = recorder.take()
        #expect(batches.count == 1)
        #expect(snapshot.rows.map(\.id) == [0, 10, 2, 3, 1])
        #expect(snapshot.sections.map(\.key) == [0, 1])
    }

    @Test("a sectioned list made with items holds them grouped, at version 1, as one made empty and given them")
    func sectionedListFromItems() async {
        let items = (0..<40).map { TestRow(id: $0, key: ($0 * 7) % 23) }
        let made = SectionedListDataSource<Int, TestRow>(items, sectionedBy: { $0.key / 5 })
        let sorted = SectionedListDataSource<Int, TestRow>(items + [TestRow(id: 3, key: 22)], sectionedBy: { $0.id % 3 }, sortedBy: { $0.key > $1.key })
        let given = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key / 5 })
        given.add(items)
        let expected = await given.flush()
        #expect(made.snapshot.version == 1 && expected.version == 1)
        #expect(Array(made.snapshot.rows) == Array(expected.rows))
        #expect(made.snapshot.sections.map(\.key) == expected.sections.map(\.key))
        #expect(made.snapshot.sections.map(\.rows) == expected.sections.map(\.rows))
        let rows = Array(sorted.snapshot.rows)
        #expect(rows.count == 40 && rows.first { $0.id == 3 }?.key == 22, "the last of a repeated id wins")
        #expect(rows.map { $0.id % 3 } == rows.map { $0.id % 3 }.sorted())
        #expect(SectionedListDataSource<Int, TestRow>([], sectionedBy: { $0.key }).snapshot.version == 0)
    }

    @Test("a removal large enough for a bulk edit, then an add that makes the run too large for one: the batch equals the oracle's")
    func bulkRemovalThenLargeAdd() async {
        for seed in 0 ..< min(Self.seedCount, 30) {
            var rng = SplitMix64(seed: seed &+ 9_000_000)
            let count = rng.int(in: 400 ..< 1_200)
            // Keys with ties half the time: a bulk edit that meets a tie goes one call at a time.
            let keys = rng.chance(0.5) ? count * 4 : 50
            let start = (0 ..< count).map { TestRow(id: $0, key: rng.int(in: 0 ..< keys)) }
            let source = ListDataSource<TestRow>(start)
            let model = Model()
            model.state.withLock { $0.oracle.add(start) }
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            _ = await source.flush()
            _ = recorder.take()
            let removed = (0 ..< rng.int(in: 32 ..< count / 8)).map { _ in rng.int(in: 0 ..< count) }
            let added = (0 ..< rng.int(in: count / 8 ..< count / 3)).map { _ in
                TestRow(id: rng.int(in: 0 ..< count + count / 4), key: rng.int(in: 0 ..< keys), payload: rng.int(in: 0 ..< 2))
            }
            let script: [Edit] = [.remove(removed), .add(added)]
            model.state.withLock { $0.oracle.beginBatch() }
            source.perform { edits in model.play(script, on: &edits) }
            let snapshot = await source.flush()
            let batches = recorder.take()
            let context = "seed \(seed): \(count) rows, remove \(removed.count), add \(added.count)"
            let matches = model.state.withLock { state -> Bool in
                #expect(Array(snapshot) == state.oracle.rows, "\(context)")
                return ListDataSourcePropertyTests.expect(batches, toMatch: state.oracle.expectedBatch(), context: context)
            }
            guard matches else { return }
        }
    }
}

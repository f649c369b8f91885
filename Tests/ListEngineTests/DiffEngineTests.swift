import Dispatch
@testable import ListEngine
import ListTestSupport
import Testing

/// The diff engine driven step by step, on its own queue, as the drain drives it.
@Suite struct DiffEngineTests {
    /// Runs `body` with an engine over `rows`, on the engine's queue.
    func withEngine<Result: Sendable>(_ rows: [TestRow], _ body: @Sendable (_DiffEngine<TestRow>) -> Result) -> Result {
        let queue = DispatchQueue(label: "DiffEngineTests")
        var storage = _ListStorage<TestRow>(comparator: .natural)
        storage.add(contentsOf: rows)
        let engine = _DiffEngine(storage: storage, published: ListSnapshot(_storage: storage, version: 1), queue: queue)
        return queue.sync { body(engine) }
    }

    func run(_ calls: [_EditRun<TestRow>.Call]) -> _EditRun<TestRow> {
        var run = _EditRun<TestRow>()
        for call in calls {
            switch call {
            case .add(let items): run.add(items)
            case .remove(let ids): run.remove(ids)
            }
        }
        return run
    }

    @Test("a bulk edit that may grow takes late calls into its batch; smaller runs never ask for them")
    func lateCallsJoinOnlyBulkEdits() {
        let rows = (0 ..< 4_000).map { TestRow(id: $0, key: $0 * 2) }
        let (asked, batch) = withEngine(rows) { engine -> (Int, ChangeBatch<TestRow>?) in
            var asked = 0
            let bulk = run([.add((10_000 ..< 10_040).map { TestRow(id: $0, key: $0 * 2 + 1) })])
            engine.apply(bulk) { run, waiting in
                asked += 1
                #expect(!waiting, "40 rows of 4,000: the edit is over before a wait would end")
                run.remove([0, 1, 2])
                return true
            }
            return (asked, engine.takeBatch())
        }
        #expect(asked == 1)
        #expect(batch?.insertions.count == 40)
        #expect(batch?.deletions == [0, 1, 2], "the late removals are in the same batch")
        #expect(batch?.new.count == 4_037)

        let small = withEngine(rows) { engine -> Int in
            var asked = 0
            engine.apply(run([.remove([5, 6])])) { _, _ in asked += 1; return false }
            engine.apply(run([.remove([7])])) { _, _ in asked += 1; return false }
            return asked
        }
        #expect(small == 0, "a run too small for a bulk edit does not wait for late calls")

        let large = (0 ..< _Tuning.lateCallWaitMinimumListRows).map { TestRow(id: $0, key: $0 * 2) }
        let named = (1 ..< 1 + _Tuning.lateCallWaitMinimumRows).map { TestRow(id: -$0, key: $0 * 2 + 1) }
        let (waited, joined) = withEngine(large) { engine -> ([Bool], ChangeBatch<TestRow>?) in
            var waited: [Bool] = []
            engine.apply(run([.add(named)])) { run, waiting in
                waited.append(waiting)
                // A call that came during the wait; with it the run names more rows than a
                // bulk edit beats merges for, and still goes in one pass.
                run.remove([0, 1, 2])
                run.add((0 ..< 20_000).map { TestRow(id: 1_000_000 + $0, key: 300_001 + $0 * 2) })
                return true
            }
            return (waited, engine.takeBatch())
        }
        #expect(waited == [true], "an edit of many rows of a large list waits for late calls")
        #expect(joined?.deletions == [0, 1, 2])
        #expect(joined?.insertions.count == named.count + 20_000)
        if let joined {
            let expected = (large.dropFirst(3) + named + (0 ..< 20_000).map { TestRow(id: 1_000_000 + $0, key: 300_001 + $0 * 2) }).sorted { $0 < $1 }
            #expect(Array(joined.new) == expected)
            var replayed = Array(joined.old)
            joined.apply(to: &replayed)
            #expect(replayed == expected)
        }
    }

    @Test("one added item is placed alone; an equal item touches nothing and makes no batch")
    func placeOne() {
        let rows = (0 ..< 100).map { TestRow(id: $0, key: $0) }
        let batches = withEngine(rows) { engine -> [ChangeBatch<TestRow>?] in
            engine.apply(run([.add([TestRow(id: 5, key: 5)])]), joiningLateCalls: nil)
            let unchanged = engine.takeBatch()
            engine.apply(run([.add([TestRow(id: 5, key: 50, payload: 1)])]), joiningLateCalls: nil)
            let moved = engine.takeBatch()
            return [unchanged, moved]
        }
        #expect(batches[0] == nil)
        #expect(batches[1]?.moves == [ListMove(from: 5, to: 50)])
        #expect(batches[1]?.reloads == [50])
        #expect(batches[1]?.version == 2, "the version counts batches taken, not calls")
    }

    @Test("steps after the first change are noted as touched ids, and every row for whole-list steps")
    func touchedRows() {
        let rows = (0 ..< 100).map { TestRow(id: $0, key: $0) }
        let batch = withEngine(rows) { engine -> ChangeBatch<TestRow>? in
            engine.apply(run([.add([TestRow(id: 3, key: 90)])]), joiningLateCalls: nil)
            engine.apply(run([.add([TestRow(id: 4, key: 91)]), .remove([7])]), joiningLateCalls: nil)
            return engine.takeBatch()
        }
        #expect(batch?.moves.count == 2)
        #expect(batch?.deletions == [7])
        let sorted = withEngine(rows) { engine -> ChangeBatch<TestRow>? in
            engine.sort(by: { $0.key > $1.key })
            return engine.takeBatch()
        }
        #expect(sorted?.new.map(\.id) == Array((0 ..< 100).reversed()))
        #expect(sorted?.moves.count == 99, "every row may move after a sort, and all but one must")
    }

    @Test("a bulk edit keeps the arrays it worked with for its batch to take; other changes keep none")
    func bulkEditLeftoversGoWithTheBatch() {
        let rows = (0 ..< 4_000).map { TestRow(id: $0, key: $0 * 2) }
        let added = (0 ..< 300).map { TestRow(id: $0 * 13, key: $0 * 26 + 1) }
        let (kept, again, batch) = withEngine(rows) { engine -> (_BulkEditLeftovers<TestRow>?, _BulkEditLeftovers<TestRow>?, ChangeBatch<TestRow>?) in
            engine.apply(run([.add(added), .remove([1, 2])]), joiningLateCalls: nil)
            let kept = engine.takeBulkEditLeftovers()
            return (kept, engine.takeBulkEditLeftovers(), engine.takeBatch())
        }
        #expect(kept?.calls?.count == 302, "the calls")
        #expect(kept?.found?.editCount == 302 && kept?.found?.oldItems.compactMap { $0 }.count == 302, "the ids, their stored items found")
        #expect(kept?.insertions.count == 300 && kept?.storedItems.count == 302, "the sorted row edits")
        #expect(kept?.rowEditor != nil)
        #expect(again == nil, "taken once")
        #expect(batch?.reloads.count == 300 && batch?.deletions == [1, 2], "the edit itself went through")

        let single = withEngine(rows) { engine -> Bool in
            engine.apply(run([.add([TestRow(id: 7, key: 9_000)])]), joiningLateCalls: nil)
            engine.apply(run([.remove([3, 4])]), joiningLateCalls: nil)
            return engine.takeBulkEditLeftovers() == nil
        }
        #expect(single, "one-row and one-at-a-time changes keep nothing")
    }
}

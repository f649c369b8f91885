@testable import ListEngine
import Testing

/// The engine's choice of how to apply a change, as a pure function of counts.
@Suite struct EditStrategyTests {
    @Test("a run: one added item is placed alone, a large enough share of the list is a bulk edit, anything later than the first change goes one at a time")
    func runs() {
        let bulk = _Tuning.bulkEditMinimumRows, fraction = _Tuning.bulkEditListFraction
        let rows = 1_000_000
        #expect(_EditStrategy.forRun(namedRows: 1, isOneItemAdded: true, isFirstChange: true, rowCount: rows) == .placeOne)
        #expect(_EditStrategy.forRun(namedRows: 1, isOneItemAdded: true, isFirstChange: true, rowCount: 0) == .placeOne)
        #expect(_EditStrategy.forRun(namedRows: 1, isOneItemAdded: false, isFirstChange: true, rowCount: rows) == .oneAtATime, "one removal")
        #expect(_EditStrategy.forRun(namedRows: bulk - 1, isOneItemAdded: false, isFirstChange: true, rowCount: rows) == .oneAtATime)
        #expect(_EditStrategy.forRun(namedRows: bulk, isOneItemAdded: false, isFirstChange: true, rowCount: rows) == .bulkEdit)
        #expect(_EditStrategy.forRun(namedRows: bulk, isOneItemAdded: false, isFirstChange: false, rowCount: rows) == .oneAtATime,
                "after another change the rows cannot record where each named row was")
        #expect(_EditStrategy.forRun(namedRows: 1, isOneItemAdded: true, isFirstChange: false, rowCount: rows) == .oneAtATime)
        // The share of the list: fewer than one row in `fraction`.
        let share = 10_000
        #expect(_EditStrategy.forRun(namedRows: share, isOneItemAdded: false, isFirstChange: true, rowCount: share * fraction + 1) == .bulkEdit)
        #expect(_EditStrategy.forRun(namedRows: share, isOneItemAdded: false, isFirstChange: true, rowCount: share * fraction) == .oneAtATime)
        #expect(_EditStrategy.forRun(namedRows: bulk, isOneItemAdded: false, isFirstChange: true, rowCount: 0) == .oneAtATime)
    }

    @Test("a bulk edit waits for late calls only when it names many rows of a large list")
    func waitingForLateCalls() {
        let rows = _Tuning.lateCallWaitMinimumRows, list = _Tuning.lateCallWaitMinimumListRows
        #expect(_EditStrategy.waitsForLateCalls(namedRows: rows, rowCount: list))
        #expect(_EditStrategy.waitsForLateCalls(namedRows: 10_000, rowCount: 1_000_000))
        #expect(!_EditStrategy.waitsForLateCalls(namedRows: rows - 1, rowCount: 1_000_000), "a small edit takes less than the wait")
        #expect(!_EditStrategy.waitsForLateCalls(namedRows: rows, rowCount: list - 1), "so does an edit of a smaller list")
    }

    @Test("adding: into an empty list more than one item rebuilds; many items relative to the rows merge; else one at a time")
    func adding() {
        let merge = _Tuning.mergeMinimumItems, fraction = _Tuning.mergeListFraction
        #expect(_EditStrategy.forAdding(itemCount: 2, rowCount: 0) == .rebuild)
        #expect(_EditStrategy.forAdding(itemCount: 1, rowCount: 0) == .oneAtATime)
        #expect(_EditStrategy.forAdding(itemCount: 0, rowCount: 0) == .oneAtATime)
        #expect(_EditStrategy.forAdding(itemCount: merge, rowCount: merge * fraction) == .merge)
        #expect(_EditStrategy.forAdding(itemCount: merge, rowCount: merge * fraction + 1) == .oneAtATime)
        #expect(_EditStrategy.forAdding(itemCount: merge - 1, rowCount: 1) == .oneAtATime)
    }

    @Test("removing: more than one row in the fraction rebuilds what stays")
    func removing() {
        let fraction = _Tuning.rebuildRemovedFraction
        #expect(_EditStrategy.forRemoving(removedCount: 100, rowCount: 100 * fraction - 1) == .rebuild)
        #expect(_EditStrategy.forRemoving(removedCount: 100, rowCount: 100 * fraction) == .oneAtATime)
        #expect(_EditStrategy.forRemoving(removedCount: 1, rowCount: 1) == .rebuild)
    }

    @Test("batches walk both snapshots once the touched ids are a large enough share of their rows")
    func walking() {
        let fraction = _Tuning.walkBothSnapshotsFraction
        #expect(_EditStrategy.walksBothSnapshots(touched: 10, oldCount: 10 * fraction / 2, newCount: 10 * fraction / 2))
        #expect(!_EditStrategy.walksBothSnapshots(touched: 10, oldCount: 10 * fraction / 2, newCount: 10 * fraction / 2 + 1))
        #expect(_EditStrategy.buildsOnTwoThreads(itemCount: _Tuning.parallelBuildMinimumItems))
        #expect(!_EditStrategy.buildsOnTwoThreads(itemCount: _Tuning.parallelBuildMinimumItems - 1))
    }

    @Test("the tuning numbers are the ones the engine is documented and benchmarked with")
    func tuning() {
        #expect(_Tuning.bulkEditMinimumRows == 32)
        #expect(_Tuning.bulkEditListFraction == 8)
        #expect(_Tuning.parallelEditMinimumIDs == 256)
        #expect(_Tuning.parallelBuildMinimumItems == 16_384)
        #expect(_Tuning.lingerNanoseconds == 200_000)
        #expect(_Tuning.spareLeavesPerType == 16)
        #expect(_CountedBTree<Int>._Fanout.default == .init(leaf: 512, branch: 32))
        #expect(_CountedBTree<(Int, Int, Int, Int, Int, Int, Int, Int)>._Fanout.default.leaf == 256)
        #expect(_CountedBTree<[UInt8]>._Fanout.default.leaf == 512, "a small element gets the maximum")
    }
}

import ListTestSupport
import Testing
@testable import TerminalListRenderer

@Suite(.cpuBound) struct ListViewportTests {
    /// Rows with keys 0, 10, 20, … and ids equal to their offsets.
    private func tens(_ count: Int) -> [TestRow] {
        (0..<count).map { TestRow(id: $0, key: $0 * 10) }
    }

    private func visibleIDs(_ viewport: ListViewport<TestRow>) -> [Int] {
        guard let snapshot = viewport.snapshot else { return [] }
        return viewport.visibleRows.filter { $0 < snapshot.count }.map { snapshot[$0].id }
    }

    private func viewport(_ source: RecordedSource, height: Int) async -> ListViewport<TestRow> {
        var viewport = ListViewport<TestRow>(height: height)
        for batch in await source.batches() { viewport.apply(batch) }
        return viewport
    }

    @Test func startsAtTheTopWithTheFirstRowSelected() async {
        let source = RecordedSource(tens(100))
        let viewport = await viewport(source, height: 5)
        #expect(viewport.top == 0)
        #expect(viewport.selection == 0)
        #expect(visibleIDs(viewport) == [0, 1, 2, 3, 4])
    }

    @Test func rowsInsertedAboveTheViewportDoNotMoveTheVisibleRows() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.scroll(toTop: 50)
        viewport.select(offset: 52)
        let before = visibleIDs(viewport)
        source.source.add([TestRow(id: 1000, key: 5), TestRow(id: 1001, key: 15), TestRow(id: 1002, key: 495)])
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.top == 53)
        #expect(visibleIDs(viewport) == before)
        #expect(viewport.selectedID == 52)
    }

    @Test func rowsRemovedAboveTheViewportDoNotMoveTheVisibleRows() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.scroll(toTop: 50)
        let before = visibleIDs(viewport)
        source.source.remove(ids: [0, 1, 2, 49, 60])
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.top == 46)
        #expect(visibleIDs(viewport) == before)
    }

    @Test func insertionInsideTheViewportPushesOnlyTheRowsBelowIt() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.scroll(toTop: 50)
        source.source.add(TestRow(id: 1000, key: 525))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(visibleIDs(viewport) == [50, 51, 52, 1000, 53])
    }

    @Test func theFirstVisibleRowMovingAwayAnchorsOnTheNextOne() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.scroll(toTop: 50)
        source.source.add([TestRow(id: 50, key: 5000), TestRow(id: 1000, key: 1)])
        for batch in await source.batches() { viewport.apply(batch) }
        // 51 keeps its screen row; the row that left is replaced from above.
        #expect(visibleIDs(viewport) == [49, 51, 52, 53, 54])
        #expect(viewport.top == 50)
    }

    @Test func aViewportAtTheEndKeepsItsLastRowsInPlace() async {
        let source = RecordedSource(tens(20))
        var viewport = await viewport(source, height: 5)
        viewport.selectLast()
        viewport.setTrailingRow(true)
        #expect(visibleIDs(viewport) == [16, 17, 18, 19])
        // A row inserted inside the viewport pushes the rows above it up; the end stays.
        source.source.add(TestRow(id: 1000, key: 175))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(visibleIDs(viewport) == [17, 1000, 18, 19])
        #expect(viewport.visibleRows.upperBound == viewport.rowCount, "the trailing row is still visible")
        // The next page arrives below the last row, which keeps its screen row: the
        // first new row takes the place of the trailing row.
        source.source.add((20..<30).map { TestRow(id: $0, key: $0 * 10) })
        for batch in await source.batches() { viewport.apply(batch) }
        viewport.setTrailingRow(false)
        #expect(visibleIDs(viewport) == [17, 1000, 18, 19, 20])
    }

    @Test func aViewportAtTheTopShowsNewFirstRows() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        source.source.add(TestRow(id: 1000, key: -1))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.top == 0)
        #expect(visibleIDs(viewport) == [1000, 0, 1, 2, 3])
        #expect(viewport.selectedID == 0)
        #expect(viewport.selection == 1)
    }

    @Test func theSelectionFollowsItsItemWhenItMoves() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.select(offset: 3)
        source.source.add(TestRow(id: 3, key: 905))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selectedID == 3)
        #expect(viewport.selection == 90)
        #expect(viewport.top == 0, "the viewport stays; the selection left it")
    }

    @Test func theSelectionGoesToTheNextRowWhenItsItemIsDeleted() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.select(offset: 7)
        source.source.remove(ids: [7, 8, 2])
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selectedID == 9)
        #expect(viewport.selection == 6)
    }

    @Test func theSelectionGoesToTheLastRowWhenTheLastItemsAreDeleted() async {
        let source = RecordedSource(tens(10))
        var viewport = await viewport(source, height: 5)
        viewport.selectLast()
        source.source.remove(ids: [8, 9])
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selectedID == 7)
        #expect(viewport.top == 3)
    }

    @Test func emptyingTheListClearsTheSelectionAndRefillingSelectsTheTop() async {
        let source = RecordedSource(tens(10))
        var viewport = await viewport(source, height: 5)
        viewport.select(offset: 4)
        source.source.removeAll()
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selection == nil)
        #expect(viewport.count == 0)
        source.source.add(tens(3))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selection == 0)
    }

    @Test func navigationKeepsTheSelectionVisible() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 5)
        viewport.moveSelection(by: 6)
        #expect(viewport.selection == 6)
        #expect(viewport.top == 2)
        viewport.moveSelection(by: -4)
        #expect(viewport.top == 2)
        viewport.moveSelection(by: -1)
        #expect(viewport.top == 1)
        viewport.pageDown()
        #expect(viewport.selection == 5)
        #expect(viewport.top == 5)
        viewport.pageUp()
        #expect(viewport.selection == 1)
        #expect(viewport.top == 1)
        viewport.selectLast()
        #expect(viewport.selection == 99)
        #expect(viewport.top == 95)
        viewport.moveSelection(by: 10)
        #expect(viewport.selection == 99)
        viewport.selectFirst()
        #expect(viewport.selection == 0)
        #expect(viewport.top == 0)
        let found = viewport.select(id: 42)
        #expect(found)
        #expect(viewport.selection == 42)
        #expect(viewport.visibleRows.contains(42))
        let missing = viewport.select(id: 4242)
        #expect(!missing)
    }

    @Test func theTrailingRowCanBeScrolledToButNotSelected() async {
        let source = RecordedSource(tens(10))
        var viewport = await viewport(source, height: 5)
        viewport.selectLast()
        #expect(viewport.visibleRows == 5..<10)
        viewport.setTrailingRow(true)
        #expect(viewport.visibleRows == 6..<11)
        viewport.moveSelection(by: 1)
        #expect(viewport.selection == 9)
        viewport.setTrailingRow(false)
        #expect(viewport.visibleRows == 5..<10)
    }

    @Test func resizingKeepsTheSelectionInView() async {
        let source = RecordedSource(tens(100))
        var viewport = await viewport(source, height: 10)
        viewport.select(offset: 9)
        viewport.resize(height: 3)
        #expect(viewport.visibleRows.contains(9))
        viewport.resize(height: 200)
        #expect(viewport.top == 0)
        #expect(viewport.visibleRows == 0..<100)
    }

    @Test func aBatchFromTheWrongVersionIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let source = RecordedSource((0..<3).map { TestRow(id: $0, key: $0) })
            var viewport = ListViewport<TestRow>(height: 3)
            _ = await source.batches()
            source.source.add(TestRow(id: 9, key: 9))
            for batch in await source.batches() { viewport.apply(batch) }
            source.source.add(TestRow(id: 10, key: 10))
            source.source.add(TestRow(id: 11, key: 11))
            let later = await source.batches()
            viewport.apply(later[later.count - 1])
            viewport.apply(later[later.count - 1])
        }
    }

    /// Over random batches: visible rows that survive unmoved keep their screen row
    /// (unless the viewport is at the top or had to be clamped), and the selection keeps
    /// its id whenever the item survives.
    @Test func anchoringAndSelectionHoldOverRandomBatches() async {
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            let source = RecordedSource((0..<rng.int(in: 0..<60)).map { TestRow(id: $0, key: rng.int(in: 0..<30)) })
            var viewport = ListViewport<TestRow>(height: rng.int(in: 1..<12))
            for batch in await source.batches() { viewport.apply(batch) }
            var nextID = 1000
            for _ in 0..<20 {
                let rows = viewport.snapshot.map(Array.init) ?? []
                switch rng.int(in: 0..<5) {
                case 0:
                    source.source.add((0..<rng.int(in: 1..<6)).map { _ in nextID += 1; return TestRow(id: nextID, key: rng.int(in: 0..<30)) })
                case 1 where !rows.isEmpty:
                    source.source.remove(ids: (0..<rng.int(in: 1..<4)).map { _ in rows[rng.int(in: 0..<rows.count)].id })
                case 2 where !rows.isEmpty:
                    source.source.add((0..<rng.int(in: 1..<4)).map { _ in
                        var row = rows[rng.int(in: 0..<rows.count)]
                        row.key = rng.int(in: 0..<30)
                        return row
                    })
                case 3:
                    source.source.sort(by: TestOrder.allCases[rng.int(in: 0..<TestOrder.allCases.count)].comparator)
                default:
                    viewport.scroll(toTop: rng.int(in: 0..<max(1, rows.count)))
                    viewport.select(offset: rng.int(in: 0..<max(1, rows.count)))
                }
                for batch in await source.batches() {
                    let before = viewport
                    viewport.apply(batch)
                    check(before: before, after: viewport, batch: batch, seed: seed)
                }
            }
        }
    }

    private func check(before: ListViewport<TestRow>, after: ListViewport<TestRow>, batch: ChangeBatch<TestRow>, seed: UInt64) {
        let new = batch.new
        if let id = before.selectedID, new.contains(id: id) {
            #expect(after.selectedID == id, "seed \(seed): selection lost its item")
        }
        #expect((after.selection == nil) == new.isEmpty, "seed \(seed)")
        let moved = Set(batch.moves.map(\.from)), deleted = Set(batch.deletions)
        guard before.top > 0 else {
            // At the top it stays there, unless a selected row that was on screen, and
            // that the batch neither moved nor deleted, would leave it: then it scrolls
            // just far enough to keep that row on screen.
            var expected = 0
            if let selected = before.selection, selected < before.height, !moved.contains(selected), !deleted.contains(selected),
               let selection = after.selection {
                expected = max(0, selection - after.height + 1)
            }
            #expect(after.top == expected, "seed \(seed): a viewport at the top stays there, or keeps its selected row on screen")
            return
        }
        let isStable = { (offset: Int) in offset < batch.old.count && !moved.contains(offset) && !deleted.contains(offset) }
        let atBottom = before.top + before.height >= before.rowCount
        let anchor = atBottom ? before.visibleRows.last(where: isStable) : before.visibleRows.first(where: isStable)
        guard let anchor, let newOffset = new.index(of: batch.old[anchor].id) else { return }
        let wanted = newOffset - (anchor - before.top)
        let maxTop = max(0, after.rowCount - after.height)
        #expect(after.top == min(max(0, wanted), maxTop), "seed \(seed): anchor \(batch.old[anchor]) moved on screen")
    }

    @Test func atTheTopAnInsertionAboveKeepsTheSelectedRowOnScreen() async {
        let source = RecordedSource((0 ..< 20).map { TestRow(id: $0, key: $0 * 10 + 10) })
        var viewport = ListViewport<TestRow>(height: 5)
        for batch in await source.batches() { viewport.apply(batch) }
        viewport.select(offset: 4)  // the last row on screen
        source.source.add(TestRow(id: 100, key: 0))  // a new first row
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.selection == 5 && viewport.snapshot?[5].id == 4, "the selection follows its row")
        #expect(viewport.visibleRows.contains(5), "the selected row left the screen: \(viewport.visibleRows)")
        // With the selection higher up, the top stays at the top and the new row shows.
        viewport.select(offset: 1)
        viewport.moveSelection(by: -1)
        #expect(viewport.top == 0 || viewport.visibleRows.contains(0))
        source.source.add(TestRow(id: 101, key: -10))
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.top == 0 && viewport.snapshot?[0].id == 101)
    }
}

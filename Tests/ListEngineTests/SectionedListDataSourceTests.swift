import Dispatch
import ListEngine
import ListTestSupport
import Synchronization
import Testing

/// Directed cases of sectioned lists: derived sections, index paths, minimal moves in
/// index-path terms, delivery.
@Suite struct SectionedListDataSourceTests {
    static let byTier: @Sendable (TestRow) -> Int = { $0.key / 2 }

    @Test("sections are derived from the items, ordered by key, and exist while non-empty")
    func derivedSections() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier)
        list.add([TestRow(id: 1, key: 5), TestRow(id: 2, key: 0), TestRow(id: 3, key: 4), TestRow(id: 4, key: 1)])
        var snapshot = await list.flush()
        #expect(snapshot.sections.map(\.key) == [0, 2])
        #expect(snapshot.sections.map(\.rows) == [0..<2, 2..<4])
        #expect(snapshot.rows.map(\.id) == [2, 4, 3, 1])
        #expect(snapshot[ListIndexPath(section: 1, item: 1)].id == 1)
        #expect(snapshot.indexPath(of: 3) == ListIndexPath(section: 1, item: 0))
        #expect(snapshot.indexPath(of: 99) == nil)
        #expect(snapshot.sectionIndex(of: 2) == 1)
        #expect(snapshot.sectionIndex(of: 1) == nil)
        #expect((0..<4).map { snapshot.indexPath(ofRowAt: $0) } == [
            ListIndexPath(section: 0, item: 0), ListIndexPath(section: 0, item: 1), ListIndexPath(section: 1, item: 0), ListIndexPath(section: 1, item: 1),
        ])
        #expect((0..<4).allSatisfy { snapshot.rowOffset(of: snapshot.indexPath(ofRowAt: $0)) == $0 })
        #expect(snapshot.version == list.rows.snapshot.version)
        list.remove(ids: [2, 4])
        snapshot = await list.flush()
        #expect(snapshot.sections.map(\.key) == [2])
        list.removeAll()
        snapshot = await list.flush()
        #expect(snapshot.sections.isEmpty)
    }

    @Test("a row that changes section moves even where its flat offset stays, and its old section goes")
    func sectionChangerAtTheSameFlatOffsetMoves() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier)
        list.add([TestRow(id: 1, key: 0), TestRow(id: 2, key: 2), TestRow(id: 3, key: 4)])
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        list.attach(recorder)
        _ = await list.flush()
        _ = recorder.take()
        list.add(TestRow(id: 2, key: 1))  // flat offset 1 before and after; section 1 → 0
        _ = await list.flush()
        let batches = recorder.take()
        try? #require(batches.count == 1)
        guard let batch = batches.first else { return }
        #expect(batch.itemMoves == [ListIndexPathMove(from: ListIndexPath(section: 1, item: 0), to: ListIndexPath(section: 0, item: 1))])
        #expect(batch.rows.moves == [ListMove(from: 1, to: 1)])
        #expect(batch.sectionDeletions == [1])
        #expect(batch.sectionInsertions == [])
        #expect(batch.itemReloads == [ListIndexPath(section: 0, item: 1)])
        #expect(batch.steps == [.move(from: ListIndexPath(section: 1, item: 0), to: ListIndexPath(section: 0, item: 1)), .removeSection(at: 1), .reload(TestRow(id: 2, key: 1), at: ListIndexPath(section: 0, item: 1))])
    }

    @Test("among rows that keep their section, the fewest move; the rows that change section always do")
    func fewestMovesInIndexPathTerms() async {
        // Sections by id % 2; rows by key. Re-keying 1 and 2 past 3 and 4 changes no
        // section: either pair could stay in flat terms.
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.id % 2 })
        list.add((1...6).map { TestRow(id: $0, key: $0) })
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        list.attach(recorder)
        _ = await list.flush()
        _ = recorder.take()
        list.add([TestRow(id: 1, key: 10), TestRow(id: 2, key: 11)])
        _ = await list.flush()
        let batch = recorder.take()[0]
        #expect(batch.itemMoves.count == 2)
        #expect(batch.sectionInsertions.isEmpty && batch.sectionDeletions.isEmpty)
        #expect(nestedRows(of: batch.new).map { $0.rows.map(\.id) } == [[4, 6, 2], [3, 5, 1]])
        #expect(Set(batch.itemMoves) == [
            ListIndexPathMove(from: ListIndexPath(section: 0, item: 0), to: ListIndexPath(section: 0, item: 2)),
            ListIndexPathMove(from: ListIndexPath(section: 1, item: 0), to: ListIndexPath(section: 1, item: 2)),
        ])
    }

    @Test("the attach batch inserts every section and row; flat renderers on rows see the same versions")
    func attachBatchAndFlatRows() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier, sortedBy: { $0.key > $1.key })
        list.add((0..<10).map { TestRow(id: $0, key: $0) })
        _ = await list.flush()
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        let flat = BatchRecorder<TestRow>()
        list.attach(recorder)
        list.rows.attach(flat)
        list.add(TestRow(id: 3, key: 8))
        _ = await list.flush()
        let batches = recorder.batches
        #expect(batches.count == 2)
        #expect(batches[0].sectionInsertions == [0, 1, 2, 3, 4])
        #expect(batches[0].itemInsertions.count == 10)
        #expect(batches[0].old.version == 0)
        // Within a section the comparator orders rows, descending here.
        #expect(batches[0].new.sections[4].rows.map { batches[0].new.rows[$0].id } == [9, 8])
        #expect(flat.batches.map(\.version) == batches.map(\.version))
        // Rows tie on key 8: the moved row goes after the row already there.
        #expect(batches[1].itemMoves == [ListIndexPathMove(from: ListIndexPath(section: 1, item: 0), to: ListIndexPath(section: 4, item: 2))])
        var nested: NestedRows<Int, TestRow> = []
        for batch in batches { applySteps(batch.steps, to: &nested) }
        #expect(isSameNested(nested, nestedRows(of: list.snapshot)))
    }

    @Test("sort(by:) re-sorts within sections, on the sectioned list and on its rows")
    func sortWithinSections() async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier)
        list.add((0..<6).map { TestRow(id: $0, key: $0) })
        list.sort(by: { $0.key > $1.key })
        var snapshot = await list.flush()
        #expect(snapshot.rows.map(\.id) == [1, 0, 3, 2, 5, 4])
        list.rows.sort(by: { $0.key < $1.key })
        snapshot = await list.flush()
        #expect(snapshot.rows.map(\.id) == [0, 1, 2, 3, 4, 5])
        #expect(snapshot.sections.map(\.key) == [0, 1, 2])
    }

    @Test("the batch stream delivers sectioned batches and ends with the list")
    func batchStream() async {
        var list: SectionedListDataSource<Int, TestRow>? = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier)
        let stream = list!.batches()
        list?.add(TestRow(id: 1, key: 3))
        _ = await list?.flush()
        list = nil
        var versions: [Int] = []
        for await batch in stream { versions.append(batch.version) }
        #expect(versions.last == 1)
    }

    @Test("main-actor sectioned renderers render on the main actor")
    @MainActor func mainActorRenderer() async {
        @MainActor final class Table: MainActorSectionedListRenderer {
            var sections: [Int] = []
            func render(_ batch: SectionedChangeBatch<Int, TestRow>) {
                MainActor.assertIsolated()
                sections = batch.new.sections.map(\.key)
            }
        }
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: Self.byTier)
        let table = Table()
        list.attach(table)
        list.add([TestRow(id: 1, key: 3), TestRow(id: 2, key: 7)])
        _ = await list.flush()
        #expect(table.sections == [1, 3])
    }
}

/// The Sectioned Lists article's example, compiled and run.
@Suite struct SectionsArticleExampleTests {
    struct Message: Hashable, DataSourceComparable {
        var id: String
        var day: Int
        var time: Int
        var text: String
        static func < (lhs: Message, rhs: Message) -> Bool { lhs.time > rhs.time }
    }

    final class Outline: SectionedListRenderer {
        let sections = Mutex<[[Message]]>([])

        func render(_ batch: SectionedChangeBatch<Int, Message>) {
            sections.withLock { sections in
                for step in batch.steps {
                    switch step {
                    case .insertSection(_, let offset): sections.insert([], at: offset)
                    case .removeSection(let offset): sections.remove(at: offset)
                    case .insert(let item, let path): sections[path.section].insert(item, at: path.item)
                    case .remove(let path): sections[path.section].remove(at: path.item)
                    case .move(let from, let to):
                        let item = sections[from.section].remove(at: from.item)
                        sections[to.section].insert(item, at: to.item)
                    case .reload(let item, let path): sections[path.section][path.item] = item
                    }
                }
            }
        }
    }

    @Test("the inbox of the Sectioned Lists article groups by day, newest first, and the outline follows it")
    func inbox() async {
        let inbox = SectionedListDataSource<Int, Message>(sectionedBy: { -$0.day })
        let outline = Outline()
        inbox.attach(outline)
        inbox.add([Message(id: "m1", day: 20_000, time: 30, text: "Lunch?"),
                   Message(id: "m2", day: 20_001, time: 10, text: "Call me"),
                   Message(id: "m3", day: 20_001, time: 50, text: "Running late")])
        let snapshot = await inbox.flush()
        #expect(snapshot.sections.map(\.key) == [-20_001, -20_000])
        #expect(snapshot.sections.map(\.rows) == [0..<2, 2..<3])
        #expect(snapshot.rows.map(\.id) == ["m3", "m2", "m1"])
        #expect(snapshot.indexPath(of: "m2") == ListIndexPath(section: 0, item: 1))
        #expect(outline.sections.withLock { $0.map { $0.map(\.id) } } == [["m3", "m2"], ["m1"]])
        inbox.update(id: "m1") { $0.day = 20_001 }  // the older day empties and goes
        _ = await inbox.flush()
        #expect(outline.sections.withLock { $0.map { $0.map(\.id) } } == [["m3", "m1", "m2"]])
    }
}

import ListTestSupport
import Testing
import WebListRenderer

@Suite("SectionedWebListRenderer")
struct SectionedWebListRendererTests {
    @Test func attachBatchBecomesASectionedSnapshotAndLaterBatchesSectionedBatches() async throws {
        let list = sectionedTestList()
        list.add([TestRow(id: 1, key: 5), TestRow(id: 2, key: 1)])
        _ = await list.flush()
        let log = FrameLog()
        let renderer = SectionedWebListRenderer(format: testSectionedFormat, send: log.append)
        #expect(renderer.version == nil && renderer.snapshotFrame() == nil)
        list.attach(renderer)
        list.add(TestRow(id: 3, key: 10))
        let snapshot = await list.flush()
        let frames = log.all
        try #require(frames.count == 2)
        #expect(frames.map(\.kind) == [.snapshot, .batch])
        #expect(try WebListMessage(json: frames[0].json) == .sectionedSnapshot(version: 1, sections: [
            WebListSection(key: "s0", title: testSectionedFormat.sectionTitle(0), items: [testRowFormat.row(TestRow(id: 2, key: 1))]),
            WebListSection(key: "s1", title: testSectionedFormat.sectionTitle(1), items: [testRowFormat.row(TestRow(id: 1, key: 5))]),
        ]))
        #expect(try WebListMessage(json: frames[1].json) == .sectionedBatch(from: 1, to: 2, steps: [
            .insertSection(key: "s3", title: testSectionedFormat.sectionTitle(3), at: 2),
            .insert(testRowFormat.row(TestRow(id: 3, key: 10)), at: ListIndexPath(section: 2, item: 0)),
        ]))
        #expect(renderer.version == 2)
        #expect(renderer.snapshotFrame()?.json == testSectionedFormat.snapshotMessage(for: snapshot).json)
        #expect(replayedSectioned(frames).sections == wireSections(snapshot))
    }

    /// A renderer moved to a list whose version is lower restarts with a snapshot
    /// numbered past what it sent; a list with the same rows but other sections does not
    /// continue the old one.
    @Test func movedBetweenListsItRestartsWithIncreasingVersions() async throws {
        let first = sectionedTestList()
        for id in 1 ... 4 {
            first.add(TestRow(id: id, key: id))
            _ = await first.flush()
        }
        let log = FrameLog()
        let renderer = SectionedWebListRenderer(format: testSectionedFormat, send: log.append)
        let token = first.attach(renderer)
        _ = await first.flush()
        first.detach(token)
        // The same rows, at the same version, in other sections: not a continuation.
        let regrouped = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key % 2 })
        for id in 1 ... 4 {
            regrouped.add(TestRow(id: id, key: id))
            _ = await regrouped.flush()
        }
        let second = regrouped.attach(renderer)
        regrouped.add(TestRow(id: 5, key: 5))
        _ = await regrouped.flush()
        regrouped.detach(second)
        let frames = log.all
        #expect(frames.map(\.kind) == [.snapshot, .snapshot, .batch])
        #expect(frames.map(\.version) == [4, 5, 6])
        let replica = replayedSectioned(frames)
        #expect(replica.sections?.map(\.key) == ["s0", "s1"])
        #expect(replica.sections?.map { $0.items.map(\.id) } == [["r2", "r4"], ["r1", "r3", "r5"]])
    }
}

import ListTestSupport
import Testing
import WebListRenderer

@Suite("WebListRenderer")
struct WebListRendererTests {
    @Test func attachBatchBecomesASnapshotAndLaterBatchesBecomeBatches() async throws {
        let source = ListDataSource([TestRow(id: 1, key: 5), TestRow(id: 2, key: 1)])
        let log = FrameLog()
        let renderer = WebListRenderer(format: testRowFormat, send: log.append)
        #expect(renderer.version == nil && renderer.snapshotFrame() == nil)
        source.attach(renderer)
        source.add(TestRow(id: 3, key: 3))
        await source.flush()
        let frames = log.all
        try #require(frames.count == 2)
        #expect(try WebListMessage(json: frames[0].json) == .snapshot(version: 1, items: [
            testRowFormat.row(TestRow(id: 2, key: 1)), testRowFormat.row(TestRow(id: 1, key: 5)),
        ]))
        #expect(try WebListMessage(json: frames[1].json) == .batch(from: 1, to: 2, steps: [
            .insert(testRowFormat.row(TestRow(id: 3, key: 3)), at: 1),
        ]))
        #expect(renderer.version == 2)
        #expect(renderer.snapshotFrame()?.json == testRowFormat.snapshotMessage(for: source.snapshot).json)
    }

    @Test func aBatchThatDoesNotContinueBecomesASnapshot() async throws {
        let first = ListDataSource([TestRow(id: 1, key: 1)])
        let second = ListDataSource([TestRow(id: 7, key: 7)])
        let log = FrameLog()
        let renderer = WebListRenderer(format: testRowFormat, send: log.append)
        let token = first.attach(renderer)
        await first.flush()
        first.detach(token)
        second.add(TestRow(id: 8, key: 8))
        await second.flush()   // second is at version 2
        second.attach(renderer)
        second.add(TestRow(id: 9, key: 9))
        await second.flush()
        #expect(log.all.map(\.kind) == [.snapshot, .snapshot, .batch])
        #expect(replayed(log.all).rows == wireRows(second.snapshot))
    }

    @Test func movedToAListWithLowerVersionsItsVersionsKeepIncreasing() async throws {
        let first = await listBuiltOneRowAtATime(ids: 1 ... 4)        // version 4
        let second = await listBuiltOneRowAtATime(ids: 101 ... 101)   // version 1
        let log = FrameLog()
        let renderer = WebListRenderer(format: testRowFormat, send: log.append)
        let token = first.attach(renderer)
        await first.flush()
        #expect(renderer.version == 4)
        first.detach(token)
        second.attach(renderer)
        await second.flush()
        for id in 102 ... 106 {
            second.add(TestRow(id: id, key: id))
            await second.flush()
        }
        // The restart snapshot is version 5, and the second list's versions follow it.
        let frames = log.all
        #expect(frames.map(\.kind) == [.snapshot, .snapshot, .batch, .batch, .batch, .batch, .batch])
        #expect(frames.map(\.version) == [4, 5, 6, 7, 8, 9, 10])
        #expect(frames.dropFirst(2).map(\.fromVersion) == [5, 6, 7, 8, 9])
        #expect(renderer.version == 10 && second.snapshot.version == 6)
        #expect(renderer.snapshotFrame()?.version == 10)
        // A client that applies every message in order (as list-client.js does) ends
        // with the second list, never the first list's rows.
        #expect(replayed(frames).rows == wireRows(second.snapshot))
    }

    @Test func movedFromAnEmptyListToAnotherEmptyListEveryFrameApplies() async throws {
        let first = ListDataSource<TestRow>(), second = ListDataSource<TestRow>()  // both at version 0
        let (_, log) = await logRenderer(movedFrom: first, to: second)
        await second.flush()
        second.add(TestRow(id: 1, key: 1))
        await second.flush()
        #expect(log.all.map(\.kind) == [.snapshot, .batch])
        #expect(replayed(log.all).rows == wireRows(second.snapshot))
    }

    @Test func movedWhileTheOldListsBatchIsStillRenderingItSendsInOrderAndEndsWithTheNewList() async throws {
        let hold = FormatHold()
        let format = format(holdingRow: 2, at: hold)
        let first = ListDataSource([TestRow(id: 1, key: 1)])  // version 1
        let log = FrameLog()
        let renderer = WebListRenderer(format: format, send: log.append)
        let token = first.attach(renderer)
        await first.flush()
        first.add(TestRow(id: 2, key: 2))  // its render of version 2 is held while formatting
        await Task.detached { hold.entered.wait() }.value
        first.detach(token)  // a render already running goes on
        let second = ListDataSource([TestRow(id: 101, key: 101)])  // version 1
        second.attach(renderer)
        hold.release.signal()
        await second.flush()
        #expect(log.all.map(\.version) == [1, 2, 3])
        #expect(replayed(log.all).rows == wireRows(second.snapshot))
    }

    @Test func aBatchAfterAChangeThatKeptTheRowsStillContinues() async throws {
        let source = ListDataSource((1...5).map { TestRow(id: $0, key: $0) })
        let log = FrameLog()
        source.attach(WebListRenderer(format: testRowFormat, send: log.append))
        await source.flush()
        // A new order that keeps every row where it was makes no batch, but new storage.
        source.sort(by: { ($0.key, $0.id) < ($1.key, $1.id) })
        source.add(TestRow(id: 6, key: 6))
        await source.flush()
        #expect(log.all.map(\.kind) == [.snapshot, .batch])
        #expect(replayed(log.all).rows == wireRows(source.snapshot))
    }

    @Test func movedToAListWithHigherVersionsItKeepsTheListsVersions() async throws {
        let first = await listBuiltOneRowAtATime(ids: 1 ... 2)        // version 2
        let second = await listBuiltOneRowAtATime(ids: 101 ... 105)   // version 5
        let (renderer, log) = await logRenderer(movedFrom: first, to: second)
        second.add(TestRow(id: 106, key: 106))
        await second.flush()
        #expect(log.all.map(\.version) == [2, 5, 6])
        #expect(renderer.version == second.snapshot.version)
    }

    /// Random mutations → frames → a replica applying the wire messages equals the list.
    @Test(arguments: 1 ... 24)
    func replayingTheMessagesGivesTheList(seed: UInt64) async throws {
        var mutator = RandomMutator(seed: seed)
        let source = ListDataSource<TestRow>()
        let log = FrameLog()
        source.attach(WebListRenderer(format: testRowFormat, send: log.append))
        var history: [String] = []
        for round in 0 ..< 60 {
            history.append(mutator.mutate(source, known: Array(source.snapshot)))
            // Sometimes let mutations coalesce, sometimes force a batch boundary.
            if round % 3 == 0 { await source.flush() }
        }
        let final = await source.flush()
        var replica = WebListReplica()
        for (index, frame) in log.all.enumerated() {
            let outcome = replica.apply(json: frame.json)
            #expect(outcome == .applied, "seed \(seed): frame \(index) \(frame.json) was \(outcome)")
            if outcome != .applied { break }
        }
        #expect(replica.version == final.version, "seed \(seed)")
        #expect(replica.rows == wireRows(final), "seed \(seed): mutations \(history)")
    }
}

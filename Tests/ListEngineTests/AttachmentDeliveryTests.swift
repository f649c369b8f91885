import Dispatch
import ListEngine
import ListTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Attaching, detaching and releasing, seen from the renderers, the streams, `flush()`
/// and the reads.
@Suite(.timeLimit(.minutes(5)))
struct AttachmentDeliveryTests {
    /// A renderer that blocks in `render(_:)` until let go, once per signal.
    final class GatedRenderer: ListRenderer {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)

        func render(_ batch: ChangeBatch<TestRow>) {
            entered.signal()
            gate.wait()
        }
    }

    /// Records the versions it renders and how many `render` calls overlapped.
    final class OverlapProbe: ListRenderer {
        let inside = Atomic<Int>(0)
        let mostInside = Atomic<Int>(0)
        let versions = LockedState<[Int]>([])

        func render(_ batch: ChangeBatch<TestRow>) {
            let now = inside.add(1, ordering: .acquiringAndReleasing).newValue
            mostInside.max(now, ordering: .relaxed)
            versions.withLock { $0.append(batch.version) }
            usleep(2_000)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test func readsNeverGoBackWhenALateRendererRendersItsAttachBatch() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let fast = BatchRecorder<TestRow>()
        source.attach(fast)
        await source.flush()
        let late = GatedRenderer()
        source.attach(late)  // its attach batch, version 1, waits at the gate
        source.add(TestRow(id: 2, key: 2))
        await waitUntil("the fast renderer has version 2") { fast.batches.last?.version == 2 }
        late.entered.wait()
        let before = source.snapshot
        late.gate.signal()  // the late renderer finishes its attach batch
        late.entered.wait()  // and starts on version 2
        let after = source.snapshot
        #expect(after.version >= before.version, "reads went from version \(before.version) back to \(after.version)")
        late.gate.signal()
        await source.flush()
        #expect(source.snapshot.version == 2 && source.count == 2)
    }

    @Test func readsShowTheAttachBatchOfTheOnlyRendererBeforeItRendersIt() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let renderer = GatedRenderer()
        source.attach(renderer)
        renderer.entered.wait()  // in its attach batch (version 1)
        source.add(TestRow(id: 2, key: 2))  // version 2 is computed, not rendered
        try? await Task.sleep(for: .milliseconds(100))
        #expect(source.snapshot.version == 1, "reads follow the renderer, not the diff queue")
        renderer.gate.signal()
        renderer.entered.wait()
        #expect(source.snapshot.version == 1)
        renderer.gate.signal()
        await source.flush()
        #expect(source.snapshot.version == 2)
    }

    @Test func attachingARendererTwiceDeliversEachVersionOnceAndSerially() async {
        let source = ListDataSource<TestRow>()
        let probe = OverlapProbe()
        let first = source.attach(probe)
        let second = source.attach(probe)
        #expect(first == second)
        for id in 0 ..< 20 { source.add(TestRow(id: id, key: id)) }
        await source.flush()
        let versions = probe.versions.withLock { $0 }
        #expect(versions == Array(0 ... versions.last!), "versions rendered: \(versions)")
        #expect(probe.mostInside.load(ordering: .relaxed) == 1)
        // One detach ends the one attachment; attaching again is a fresh one.
        source.detach(first)
        source.add(TestRow(id: 100, key: 100))
        await source.flush()
        #expect(probe.versions.withLock { $0 } == versions)
        source.attach(probe)
        await source.flush()
        #expect(probe.versions.withLock { $0 }.last == versions.last! + 1)
    }

    @Test func aBatchAfterANoOpSortContinuesFromTheSnapshotRenderersHave() async {
        let source = ListDataSource<TestRow>((0 ..< 5).map { TestRow(id: $0, key: $0) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        await source.flush()
        source.sort(by: { $0.key < $1.key || ($0.key == $1.key && $0.id < $1.id) })  // the same order: no batch
        let flushed = await source.flush()
        #expect(flushed.isIdentical(to: recorder.batches[0].new))
        source.add(TestRow(id: 9, key: 9))
        await source.flush()
        let batches = recorder.batches
        #expect(batches.count == 2)
        #expect(batches[1].old.isIdentical(to: batches[0].new))
        #expect(Array(batches[1].new.map(\.id)) == [0, 1, 2, 3, 4, 9])
    }

    @Test func aBatchAfterARemoveAndEqualReAddContinuesFromTheSnapshotRenderersHave() async {
        let source = ListDataSource<TestRow>((0 ..< 5).map { TestRow(id: $0, key: $0) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        await source.flush()
        // Hold the diff queue so that the remove and the re-add are taken together.
        let hold = DiffQueueHold()
        source.sort(by: { hold.holdOnce(); return $0.key < $1.key })
        hold.entered.wait()
        source.remove(ids: [4])
        source.add(TestRow(id: 4, key: 4))
        hold.release.signal()
        await source.flush()
        // A re-keyed update after it is computed from the renderers' snapshot, too.
        source.add(TestRow(id: 4, key: -1))
        await source.flush()
        let batches = recorder.batches
        #expect(batches.count == 2)
        #expect(batches[1].old.isIdentical(to: batches[0].new))
        #expect(batches[1].moves == [ListMove(from: 4, to: 0)])
    }

    @Test func aStreamEndsWhenItsDataSourceIsReleased() async {
        weak var released: ListDataSource<TestRow>?
        var source: ListDataSource<TestRow>? = ListDataSource([TestRow(id: 1, key: 1)])
        released = source
        let stream = source!.batches()
        source!.add(TestRow(id: 2, key: 2))
        await source!.flush()
        source = nil
        await waitUntil("the data source is released") { released == nil }
        var versions: [Int] = []
        for await batch in stream { versions.append(batch.version) }  // ends
        #expect(versions == [1, 2], "every batch sent before the release, then the end")
    }

    @Test func flushGoesOnWhenAStuckRendererIsDetached() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let stuck = GatedRenderer()
        let token = source.attach(stuck)
        stuck.entered.wait()  // stuck inside its attach batch
        let isDone = Atomic<Bool>(false)
        let flusher = Task {
            await source.flush()
            isDone.store(true, ordering: .releasing)
        }
        try? await Task.sleep(for: .milliseconds(50))
        let isDoneBeforeDetach = isDone.load(ordering: .acquiring)
        #expect(!isDoneBeforeDetach, "flush waits for the attached renderer")
        source.detach(token)
        await waitUntil("flush returns once the stuck renderer is detached") { isDone.load(ordering: .acquiring) }
        stuck.gate.signal()
        await flusher.value
        // A flush made after the detach does not wait for it at all.
        await source.flush()
    }
}

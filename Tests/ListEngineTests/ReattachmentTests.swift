import Dispatch
import ListEngine
import ListTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tokens across data sources, and a renderer detached and attached again.
@Suite(.timeLimit(.minutes(5))) struct ReattachmentTests {
    @Test("tokens of different data sources differ, and a data source ignores another's token")
    func detachingWithAnotherDataSourcesTokenDoesNothing() async {
        let first = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let second = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let firstToken = first.attach(BatchRecorder<TestRow>())
        let recorder = BatchRecorder<TestRow>()
        let secondToken = second.attach(recorder)
        await second.flush()
        #expect(firstToken != secondToken)
        second.detach(firstToken)
        second.add(TestRow(id: 2, key: 2))
        await second.flush()
        #expect(recorder.batches.map(\.version) == [1, 2])
    }

    /// Counts how many `render` calls run at once, and holds the render of version 2.
    final class OverlapCounter: ListRenderer {
        let inside = Atomic<Int>(0), most = Atomic<Int>(0)
        let versions = LockedState<[Int]>([])
        let entered = DispatchSemaphore(value: 0)
        let holdsVersion: Int

        init(holdsVersion: Int) {
            self.holdsVersion = holdsVersion
        }

        func render(_ batch: ChangeBatch<TestRow>) {
            most.max(inside.add(1, ordering: .acquiringAndReleasing).newValue, ordering: .relaxed)
            versions.withLock { $0.append(batch.version) }
            if batch.version == holdsVersion && batch.old.version == holdsVersion - 1 {
                entered.signal()
                usleep(200_000)
            }
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test("attached again while a render runs, the renderer gets its attach batch after that render, never beside it")
    func reattachingWhileARenderRunsDoesNotOverlap() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let renderer = OverlapCounter(holdsVersion: 2)
        let token = source.attach(renderer)
        source.add(TestRow(id: 2, key: 2))
        renderer.entered.wait()  // inside render(v2)
        source.detach(token)
        let again = source.attach(renderer)
        #expect(again != token)
        await source.flush()
        #expect(renderer.most.load(ordering: .relaxed) == 1)
        #expect(renderer.versions.withLock { $0 } == [1, 2, 2])  // the attach batch again shows v2
    }

    /// Detaches and attaches itself again from inside `render`.
    final class SelfReattaching: ListRenderer {
        let source: ListDataSource<TestRow>
        let token = LockedState<RendererToken?>(nil)
        let inside = Atomic<Int>(0), most = Atomic<Int>(0)
        let renders = Atomic<Int>(0)

        init(source: ListDataSource<TestRow>) {
            self.source = source
        }

        func render(_ batch: ChangeBatch<TestRow>) {
            most.max(inside.add(1, ordering: .acquiringAndReleasing).newValue, ordering: .relaxed)
            if renders.add(1, ordering: .relaxed).newValue == 2, let current = token.withLock({ $0 }) {
                source.detach(current)
                let next = source.attach(self)
                token.withLock { $0 = next }
                usleep(100_000)
            }
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test("a renderer that detaches and attaches itself inside render is never rendered twice at once")
    func reattachingFromInsideRenderDoesNotOverlap() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let renderer = SelfReattaching(source: source)
        let token = source.attach(renderer)
        renderer.token.withLock { $0 = $0 ?? token }
        source.add(TestRow(id: 2, key: 2))
        await source.flush()
        source.add(TestRow(id: 3, key: 3))
        await source.flush()
        #expect(renderer.most.load(ordering: .relaxed) == 1)
        #expect(renderer.renders.load(ordering: .relaxed) >= 3)
    }
}

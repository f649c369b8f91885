import Dispatch
import ListEngine
import ListTestSupport
import Synchronization
import Testing

@Suite struct DeliveryTests {
    @Test("a late renderer first receives an attach batch from the empty list")
    func attachBatch() async {
        let source = ListDataSource<TestRow>((0..<4).map { TestRow(id: $0, key: $0) })
        source.add(TestRow(id: 9, key: 9))
        _ = await source.flush()
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        let first = recorder.batches.first
        #expect(first?.old.isEmpty == true)
        #expect(first?.old.version == 0)
        #expect(first?.version == 2)
        #expect(first?.insertions == [0, 1, 2, 3, 4])
        #expect(recorder.batches.count == 1)
    }

    @Test("detach stops delivery; other renderers continue")
    func detachStops() async {
        let source = ListDataSource<TestRow>()
        let kept = BatchRecorder<TestRow>(), dropped = BatchRecorder<TestRow>()
        source.attach(kept)
        let token = source.attach(dropped)
        source.add(TestRow(id: 1, key: 1))
        _ = await source.flush()
        source.detach(token)
        source.detach(token)  // twice is harmless
        source.add(TestRow(id: 2, key: 2))
        _ = await source.flush()
        #expect(kept.batches.map(\.version) == [0, 1, 2])
        #expect(dropped.batches.map(\.version) == [0, 1])
    }

    @Test("batches() streams the attach batch and then every batch")
    func asyncStream() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1)])
        let stream = source.batches()
        source.add(TestRow(id: 2, key: 2))
        source.remove(ids: [1])
        var versions: [Int] = []
        var rows: [TestRow] = []
        for await batch in stream {
            batch.apply(to: &rows)
            versions.append(batch.version)
            if rows.map(\.id) == [2] { break }
        }
        #expect(versions.first == 1)
        #expect(rows.map(\.id) == [2])
    }

    @Test("render runs serially and in order even on a concurrent queue")
    func concurrentQueueIsSerialized() async {
        let source = ListDataSource<TestRow>()
        let recorder = BatchRecorder<TestRow>(delayMicroseconds: 200)
        source.attach(recorder, on: DispatchQueue(label: "concurrent", attributes: .concurrent))
        for id in 0..<50 {
            source.add(TestRow(id: id, key: id))
            if id % 7 == 0 { _ = await source.flush() }
        }
        let final = await source.flush()
        let versions = recorder.batches.map(\.version)
        #expect(versions == Array(versions.first!...final.version))
        #expect(recorder.replayedRows() == Array(final))
    }

    @Test("reads show what every renderer has rendered")
    func readsFollowDelivery() async {
        let source = ListDataSource<TestRow>()
        let gate = DispatchSemaphore(value: 0)
        final class Gated: ListRenderer {
            let gate: DispatchSemaphore
            init(gate: DispatchSemaphore) { self.gate = gate }
            func render(_ batch: ChangeBatch<TestRow>) { if batch.version > 0 { gate.wait() } }
        }
        source.attach(Gated(gate: gate))
        _ = await source.flush()
        source.add(TestRow(id: 1, key: 1))
        // The renderer is blocked on version 1, so reads still show version 0.
        try? await Task.sleep(for: .milliseconds(50))
        #expect(source.count == 0)
        gate.signal()
        _ = await source.flush()
        #expect(source.count == 1)
        #expect(source[0].id == 1)
        #expect(source[id: 1]?.key == 1)
        #expect(source.index(of: 1) == 0)
    }

    /// What a renderer read from its data source while rendering each batch, beside the batch.
    final class ReadingRenderer: ListRenderer {
        struct Reading: Sendable, Equatable {
            var version: Int
            var batchIDs: [Int]
            var readVersion: Int
            var readIDs: [Int]
            var readCount: Int
            /// For each row of the batch: `source[id:]` and `source.index(of:)` agree with it.
            var lookupsAgree: Bool
        }

        let source: ListDataSource<TestRow>
        let gate: DispatchSemaphore?
        let readings = LockedState<[Reading]>([])

        init(source: ListDataSource<TestRow>, gate: DispatchSemaphore? = nil) {
            self.source = source
            self.gate = gate
        }

        func render(_ batch: ChangeBatch<TestRow>) {
            gate?.wait()
            let ids = batch.new.map(\.id)
            let lookupsAgree = batch.new.enumerated().allSatisfy { offset, row in
                source[id: row.id] == row && source.index(of: row.id) == offset && source[offset] == row
            }
            let reading = Reading(
                version: batch.version, batchIDs: ids, readVersion: source.snapshot.version,
                readIDs: source.snapshot.map(\.id), readCount: source.count, lookupsAgree: lookupsAgree
            )
            readings.withLock { $0.append(reading) }
        }

        func expectEveryReadMatchesItsBatch(_ comment: Comment? = nil) {
            let readings = readings.withLock { $0 }
            #expect(!readings.isEmpty)
            for reading in readings {
                #expect(reading.readVersion == reading.version, comment)
                #expect(reading.readIDs == reading.batchIDs, comment)
                #expect(reading.readCount == reading.batchIDs.count, comment)
                #expect(reading.lookupsAgree, comment)
            }
        }
    }

    @Test("inside render, reads show exactly the batch being applied, not the one before")
    func readsInsideRenderSeeTheBatch() async {
        let source = ListDataSource<TestRow>()
        let renderer = ReadingRenderer(source: source)
        source.attach(renderer)
        for id in 1...5 {
            source.add(TestRow(id: id, key: 10 - id))
            _ = await source.flush()
        }
        source.remove(ids: [2])
        _ = await source.flush()
        #expect(renderer.readings.withLock { $0.map(\.version) } == [0, 1, 2, 3, 4, 5, 6])
        renderer.expectEveryReadMatchesItsBatch()
    }

    @Test("inside the attach batch, reads do not run ahead to versions computed since")
    func readsInsideTheAttachBatchDoNotRunAhead() async throws {
        let source = ListDataSource<TestRow>((0..<3).map { TestRow(id: $0, key: $0) })
        let gate = DispatchSemaphore(value: 0)
        let renderer = ReadingRenderer(source: source, gate: gate)
        let stream = source.batches()
        source.attach(renderer)
        source.add((10..<20).map { TestRow(id: $0, key: $0) })
        // The renderer is held before its attach batch; wait for version 2 to be computed
        // (the stream has it as soon as it is).
        for await batch in stream where batch.version >= 2 { break }
        gate.signal()
        gate.signal()
        _ = await source.flush()
        #expect(renderer.readings.withLock { $0.map(\.readCount) } == [3, 13])
        renderer.expectEveryReadMatchesItsBatch()
    }

    @Test("with a slow renderer behind, a fast one still reads exactly its own batches")
    func eachRendererReadsItsOwnBatch() async throws {
        let source = ListDataSource<TestRow>()
        let gate = DispatchSemaphore(value: 1)  // lets the slow renderer's attach batch through
        let slow = ReadingRenderer(source: source, gate: gate), fast = ReadingRenderer(source: source)
        source.attach(slow)
        source.attach(fast)
        await waitUntil("the slow renderer rendered its attach batch") { slow.readings.withLock { $0.count } >= 1 }
        for id in 1...4 {
            source.add(TestRow(id: id, key: id))
            // Wait for the fast renderer only: the slow one is held on version 1.
            await waitUntil("the fast renderer rendered version \(id)") { fast.readings.withLock { $0.last?.version } == id }
        }
        #expect(source.count == 0)  // outside render: what every renderer has rendered
        for _ in 1...4 { gate.signal() }
        _ = await source.flush()
        #expect(fast.readings.withLock { $0.count } == 5 && slow.readings.withLock { $0.count } == 5)
        fast.expectEveryReadMatchesItsBatch("fast")
        slow.expectEveryReadMatchesItsBatch("slow")
        #expect(source.count == 4)
    }

    @Test("renderers on .main and on a caller's queue get every batch, and flush waits for both")
    func mainAndCallerQueues() async {
        let source = ListDataSource<TestRow>()
        let onMain = BatchRecorder<TestRow>(), onQueue = BatchRecorder<TestRow>(delayMicroseconds: 2_000)
        source.attach(onMain, on: .main)
        source.attach(onQueue, on: DispatchQueue(label: "caller", attributes: .concurrent))
        for id in 0..<5 {
            source.add(TestRow(id: id, key: id))
            let snapshot = await source.flush()
            #expect(onMain.batches.last?.version == snapshot.version)
            #expect(onQueue.batches.last?.version == snapshot.version)
        }
        #expect(onMain.replayedRows() == Array(source.snapshot))
        #expect(onQueue.replayedRows() == Array(source.snapshot))
    }

    @Test("render runs on the queue the renderer was attached with; by default on a private queue off the main thread")
    func renderRunsOnItsQueue() async {
        /// Records, for every batch, whether `render` ran where `isOnExpectedQueue` says it should.
        final class QueueCheckingRenderer: ListRenderer {
            let isOnExpectedQueue: @Sendable () -> Bool
            let checks = Mutex<[Bool]>([])

            init(_ isOnExpectedQueue: @escaping @Sendable () -> Bool) {
                self.isOnExpectedQueue = isOnExpectedQueue
            }

            func render(_ batch: ChangeBatch<TestRow>) {
                let isExpected = isOnExpectedQueue()
                checks.withLock { $0.append(isExpected) }
            }
        }
        let label = DispatchSpecificKey<String>()
        let callerQueue = DispatchQueue(label: "caller", attributes: .concurrent)
        callerQueue.setSpecific(key: label, value: "caller")
        DispatchQueue.main.setSpecific(key: label, value: "main")
        defer { DispatchQueue.main.setSpecific(key: label, value: nil) }
        // A queue's specific values are found through the queues it targets, so these
        // hold on the data source's serial queue that targets the given queue.
        let onCaller = QueueCheckingRenderer { DispatchQueue.getSpecific(key: label) == "caller" }
        let onMain = QueueCheckingRenderer { DispatchQueue.getSpecific(key: label) == "main" }
        let onPrivate = QueueCheckingRenderer { DispatchQueue.getSpecific(key: label) == nil }

        let source = ListDataSource<TestRow>()
        source.attach(onCaller, on: callerQueue)
        source.attach(onMain, on: .main)
        source.attach(onPrivate)
        for id in 0..<3 {
            source.add(TestRow(id: id, key: id))
            _ = await source.flush()
        }
        for (name, renderer) in [("caller's queue", onCaller), ("main queue", onMain), ("private queue", onPrivate)] {
            #expect(renderer.checks.withLock { $0 } == [true, true, true, true], "\(name)")
        }
    }

    @Test("a batch is empty only when it has no deletions, insertions, moves or reloads")
    func batchIsEmpty() async {
        let source = ListDataSource<TestRow>()
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        source.add([TestRow(id: 1, key: 1), TestRow(id: 2, key: 2)])
        _ = await source.flush()
        source.sort { $0.key > $1.key }
        _ = await source.flush()
        source.add(TestRow(id: 1, key: 1, payload: 5))
        _ = await source.flush()
        source.remove(ids: [2])
        _ = await source.flush()
        let batches = recorder.take()
        #expect(batches.map(\.isEmpty) == [true, false, false, false, false])
        #expect(batches.map { [$0.deletions.count, $0.insertions.count, $0.moves.count, $0.reloads.count] }
            == [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0]])
        let later = BatchRecorder<TestRow>()
        source.attach(later)
        _ = await source.flush()
        #expect(later.batches.map(\.isEmpty) == [false], "the attach batch of a list with rows inserts them")
    }

    @Test("remove(_ items) removes by id, whatever the items hold")
    func removeItemsByID() async {
        let source = ListDataSource<TestRow>([TestRow(id: 1, key: 1), TestRow(id: 2, key: 2)])
        source.remove([TestRow(id: 1, key: 99, payload: 5), TestRow(id: 7, key: 0)])
        let rows = await source.flush()
        #expect(rows.map(\.id) == [2])
        #expect(rows.version == 2)
    }

    @Test("a task started inside render reads what everyone has rendered, not the batch that started it", .timeLimit(.minutes(5)))
    func aTaskStartedInRenderDoesNotKeepTheBatch() async {
        final class TaskStartingRenderer: ListRenderer {
            let source: ListDataSource<TestRow>
            let requests = AsyncStream.makeStream(of: Void.self)
            let reads = AsyncStream.makeStream(of: Int.self)
            let started = Atomic<Bool>(false)

            init(source: ListDataSource<TestRow>) { self.source = source }

            func render(_ batch: ChangeBatch<TestRow>) {
                guard !started.exchange(true, ordering: .relaxed) else { return }
                let (source, requests, reads) = (source, requests.stream, reads.continuation)
                Task { for await _ in requests { reads.yield(source.snapshot.version) } }
            }
        }
        let source = ListDataSource<TestRow>()
        let renderer = TaskStartingRenderer(source: source)
        source.attach(renderer)
        for id in 1...3 {
            source.add(TestRow(id: id, key: id))
            _ = await source.flush()
        }
        renderer.requests.continuation.yield()
        var reads = renderer.reads.stream.makeAsyncIterator()
        #expect(await reads.next() == 3)
    }
}

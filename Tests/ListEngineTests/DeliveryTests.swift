import Dispatch
import ListEngine
import ListTestSupport
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
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ListEngine
import ListTestSupport
import Testing

/// Run under `swift test --sanitize=thread` in CI.
@Suite struct ConcurrencyTests {
    @Test("8 tasks adding and removing while 3 renderers (one slow) watch", arguments: 0..<3)
    func concurrentMutations(round: Int) async {
        let source = ListDataSource<TestRow>()
        let fast = BatchRecorder<TestRow>(), slow = BatchRecorder<TestRow>(delayMicroseconds: 300)
        let main = BatchRecorder<TestRow>()
        source.attach(fast)
        source.attach(slow)
        source.attach(main, on: DispatchQueue(label: "renderer-3"))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(round * 100 + worker))
                    for step in 0..<300 {
                        let id = worker * 1_000 + rng.int(in: 0..<60)
                        if rng.chance(0.3) {
                            source.remove(ids: [id])
                        } else {
                            source.add(TestRow(id: id, key: rng.int(in: 0..<20), payload: step))
                        }
                        if step % 50 == 0 { await Task.yield() }
                    }
                }
            }
        }
        let final = await source.flush()
        for (name, recorder) in [("fast", fast), ("slow", slow), ("third", main)] {
            let versions = recorder.batches.map(\.version)
            #expect(versions.last == final.version, "\(name) did not reach the final version")
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(name) saw a gap: \(versions)")
            #expect(recorder.replayedRows() == Array(final), "\(name) replay differs from the final snapshot")
        }
        #expect(Set(final.map(\.id)).count == final.count)
        #expect(zip(final, final.dropFirst()).allSatisfy { !($1 < $0) })
    }

    @Test("flush from many tasks at once returns after everything before it")
    func concurrentFlushes() async {
        let source = ListDataSource<TestRow>()
        let recorder = BatchRecorder<TestRow>(delayMicroseconds: 100)
        source.attach(recorder)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    for step in 0..<40 {
                        source.add(TestRow(id: worker * 100 + step, key: step))
                        let seen = await source.flush()
                        #expect(seen.contains(id: worker * 100 + step))
                    }
                }
            }
        }
        #expect(await source.flush().count == 240)
    }

    @Test("calls large enough to be edited in one pass, with the id pass and the sort on two threads, while renderers watch")
    func largeBulkEdits() async {
        var rounds = BulkEditRounds(count: 30_000, seed: 77)
        let source = ListDataSource(Array(rounds.expected.values))
        let fast = BatchRecorder<TestRow>(), slow = BatchRecorder<TestRow>(delayMicroseconds: 200)
        source.attach(fast)
        source.attach(slow)
        for _ in 0 ..< 4 {
            // 3,000 ids: past the threshold for two threads, and under an eighth of the rows.
            await rounds.round(on: source, adding: 2_500, removing: 500, idsBelow: 40_000)
        }
        let final = await source.flush()
        #expect(Array(final) == rounds.rows)
        for (name, recorder) in [("fast", fast), ("slow", slow)] {
            #expect(recorder.batches.last?.version == final.version, "\(name) did not reach the final version")
            #expect(recorder.replayedRows() == Array(final), "\(name) replay differs from the final snapshot")
        }
    }

    @Test("one-row updates of a list of full-size leaves, whose replaced leaves are freed on the renderers' queues and reused by the diff queue")
    func oneRowUpdatesReuseLeaves() async {
        var rng = SplitMix64(seed: 5)
        var expected: [Int: TestRow] = [:]
        for id in 0 ..< 20_000 { expected[id] = TestRow(id: id, key: rng.int(in: 0 ..< 1_000_000) * 100_000 + id) }
        let source = ListDataSource(Array(expected.values))
        // Renderers that keep no batch, so each old snapshot goes once it is rendered.
        let fast = ReplayingRenderer(), slow = ReplayingRenderer(delayMicroseconds: 50)
        source.attach(fast)
        source.attach(slow)
        // A reader that walks whatever snapshot is current, so that leaves are also
        // freed while an iterator holds their storage.
        let reader = Task.detached {
            var walked = 0
            while !Task.isCancelled {
                walked += source.snapshot.reduce(0) { $0 &+ $1.id } & 1
                await Task.yield()
            }
            return walked
        }
        for step in 0 ..< 1_500 {
            let id = rng.int(in: 0 ..< 21_000)
            if rng.chance(0.1) {
                source.remove(ids: [id])
                expected[id] = nil
            } else {
                let row = TestRow(id: id, key: rng.int(in: 0 ..< 1_000_000) * 100_000 + id, payload: step)
                source.add(row)
                expected[id] = row
            }
            if step % 100 == 0 { await source.flush() }
        }
        let final = await source.flush()
        reader.cancel()
        _ = await reader.value
        #expect(Array(final) == expected.values.sorted { $0.key < $1.key })
        for (name, renderer) in [("fast", fast), ("slow", slow)] {
            let (rows, version) = renderer.replayed
            #expect(version == final.version, "\(name) did not reach the final version")
            #expect(rows == Array(final), "\(name) replay differs from the final snapshot")
        }
    }

    @Test("renderers attached while 4 tasks mutate each start with an attach batch and see every later version", arguments: 0..<3)
    func attachWhileMutating(round: Int) async {
        let source = ListDataSource<TestRow>()
        let recorders = LockedState<[BatchRecorder<TestRow>]>([])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(round * 10 + worker))
                    for step in 0..<400 {
                        let id = rng.int(in: 0..<80)
                        if rng.chance(0.3) {
                            source.remove(ids: [id])
                        } else {
                            source.add(TestRow(id: id, key: rng.int(in: 0..<10), payload: step))
                        }
                        if step % 40 == 0 { await Task.yield() }
                    }
                }
            }
            group.addTask {
                for index in 0..<20 {
                    let recorder = BatchRecorder<TestRow>(delayMicroseconds: index % 3 == 0 ? 100 : 0)
                    let queue = index % 2 == 0 ? nil : DispatchQueue(label: "renderer-\(index)", attributes: .concurrent)
                    source.attach(recorder, on: queue)
                    recorders.withLock { $0.append(recorder) }
                    await Task.yield()
                }
            }
        }
        let final = await source.flush()
        for (index, recorder) in recorders.withLock({ $0 }).enumerated() {
            let batches = recorder.batches
            let attach = batches.first
            #expect(attach?.old.version == 0 && attach?.old.isEmpty == true && attach?.insertions.count == attach?.new.count,
                    "renderer \(index) did not start with an attach batch")
            for (earlier, later) in zip(batches, batches.dropFirst()) {
                #expect(later.old.version == earlier.new.version && later.version == earlier.version + 1, "renderer \(index)")
            }
            #expect(batches.last?.version == final.version, "renderer \(index)")
            #expect(recorder.replayedRows() == Array(final), "renderer \(index)")
        }
    }
}

/// A renderer that applies each batch to an array of rows and keeps no batch.
private final class ReplayingRenderer: ListRenderer {
    private let state = LockedState<(rows: [TestRow], version: Int)>(([], 0))
    private let delayMicroseconds: UInt32

    init(delayMicroseconds: UInt32 = 0) {
        self.delayMicroseconds = delayMicroseconds
    }

    func render(_ batch: ChangeBatch<TestRow>) {
        if delayMicroseconds > 0 { usleep(delayMicroseconds) }
        state.withLock { state in
            batch.apply(to: &state.rows)
            state.version = batch.version
        }
    }

    /// The rows replayed so far and the version of the last batch.
    var replayed: (rows: [TestRow], version: Int) { state.withLock { $0 } }
}

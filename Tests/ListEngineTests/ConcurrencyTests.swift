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
}

import Dispatch
import ListEngine
import ListTestSupport
import Testing

/// Sectioned lists with several writers and slow renderers; run under
/// `swift test --sanitize=thread` in CI.
@Suite struct SectionedConcurrencyTests {
    @Test("6 tasks re-keying rows across sections while a fast, a slow and a queued renderer watch", arguments: 0..<3)
    func concurrentWriters(round: Int) async {
        let list = SectionedListDataSource<Int, TestRow>(sectionedBy: { $0.key / 4 })
        let fast = SectionedBatchRecorder<Int, TestRow>(), slow = SectionedBatchRecorder<Int, TestRow>(delayMicroseconds: 300)
        let queued = SectionedBatchRecorder<Int, TestRow>()
        list.attach(fast)
        list.attach(slow)
        list.attach(queued, on: DispatchQueue(label: "sectioned-renderer"))
        let flat = BatchRecorder<TestRow>()
        list.rows.attach(flat)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(round * 100 + worker))
                    for step in 0..<250 {
                        let id = worker * 1_000 + rng.int(in: 0..<40)
                        switch rng.int(in: 0..<10) {
                        case 0..<2: list.remove(ids: [id])
                        case 2: list.update(id: id) { $0.key = ($0.key + 4) % 24 }  // next section
                        default: list.add(TestRow(id: id, key: rng.int(in: 0..<24), payload: step))
                        }
                        if step % 40 == 0 { await Task.yield() }
                    }
                }
            }
        }
        let final = await list.flush()
        let expected = nestedRows(of: final)
        for (name, recorder) in [("fast", fast), ("slow", slow), ("queued", queued)] {
            let versions = recorder.batches.map(\.version)
            #expect(versions.last == final.version, "\(name) did not reach the final version")
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(name) saw a gap: \(versions)")
            var replayed: NestedRows<Int, TestRow> = []
            for batch in recorder.batches { applySteps(batch.steps, to: &replayed) }
            #expect(isSameNested(replayed, expected), "\(name) replay differs from the final snapshot")
        }
        #expect(flat.batches.map(\.version) == fast.batches.map(\.version), "flat and sectioned renderers saw different versions")
        #expect(flat.replayedRows() == Array(final.rows))
        var next = 0
        for section in final.sections {
            #expect(section.rows.lowerBound == next && !section.rows.isEmpty)
            for offset in section.rows { #expect(final.rows[offset].key / 4 == section.key) }
            next = section.rows.upperBound
        }
        #expect(next == final.rows.count)
    }
}

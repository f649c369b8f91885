import ListEngine
import ListTestSupport
import Testing

/// The sequential edit script, on hand-made cases and on many random batches.
@Suite(.cpuBound) struct ChangeBatchStepsTests {
    @Test("steps on a batch with every kind of change")
    func mixedBatch() async {
        let source = ListDataSource<TestRow>((0..<8).map { TestRow(id: $0, key: $0 * 10) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        // One call, so one batch: drop #5, re-key #7 and #0, change #3's content, add #20.
        source.replaceAll(with: [
            TestRow(id: 7, key: 5), TestRow(id: 0, key: 75), TestRow(id: 3, key: 30, payload: 1), TestRow(id: 20, key: 41),
            TestRow(id: 1, key: 10), TestRow(id: 2, key: 20), TestRow(id: 4, key: 40), TestRow(id: 6, key: 60),
        ])
        _ = await source.flush()
        let batch = recorder.take()[0]
        #expect(batch.deletions == [5])
        #expect(batch.insertions == [5])
        #expect(batch.reloads == [0, 3, 7])  // the re-keyed rows changed content too
        #expect(batch.moves.count == 2)
        var rows = Array(batch.old)
        batch.apply(to: &rows)
        #expect(rows == Array(batch.new))
        #expect(rows.map(\.id) == [7, 1, 2, 3, 4, 20, 6, 0])
    }

    @Test("random permutations: steps replay exactly", arguments: 0..<4)
    func randomPermutations(chunk: Int) async {
        for seed in UInt64(chunk * 250)..<UInt64(chunk * 250 + 250) {
            var rng = SplitMix64(seed: seed)
            let count = rng.int(in: 0..<40)
            let source = ListDataSource<TestRow>((0..<count).map { TestRow(id: $0, key: $0) })
            let recorder = BatchRecorder<TestRow>()
            source.attach(recorder)
            let newKeys = (0..<count).shuffled(using: &rng)
            source.sort(by: { newKeys[$0.id] < newKeys[$1.id] })
            _ = await source.flush()
            for batch in recorder.batches {
                var rows = Array(batch.old)
                batch.apply(to: &rows)
                #expect(rows == Array(batch.new), "seed \(seed)")
            }
        }
    }
}

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
                var stepped = Array(batch.old)
                for step in batch.steps { ChangeBatch.apply(step, to: &stepped) }
                #expect(stepped == Array(batch.new), "seed \(seed): steps")
                var rows = Array(batch.old)
                batch.apply(to: &rows)
                #expect(rows == Array(batch.new), "seed \(seed): apply(to:)")
            }
        }
    }

    @Test("apply(to:) turns 200,000 rows into the new ones through 11,000 changes in one pass, keeping the rows that stay")
    func applyingALargeBatch() async {
        var rng = SplitMix64(seed: 11)
        let count = 200_000
        let source = ListDataSource<TestRow>((0..<count).map { TestRow(id: $0, key: $0 * 4) })
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        // 4,000 deleted, 4,000 inserted, 1,000 moved, 2,000 changed in place: one call.
        let picked = Rows.distinct(9_000, below: count, using: &rng)
        var items: [TestRow] = []
        for id in picked[4_000 ..< 5_000] { items.append(TestRow(id: id, key: rng.int(in: 0..<(count * 4)) | 1)) }
        for id in picked[5_000 ..< 7_000] { items.append(TestRow(id: id, key: id * 4, payload: 1)) }
        for id in 0 ..< 4_000 { items.append(TestRow(id: count + id, key: rng.int(in: 0..<(count * 4)) | 2)) }
        let (removed, added) = (picked[0 ..< 4_000], items)
        source.perform { edits in
            edits.remove(ids: removed)
            edits.add(added)
        }
        _ = await source.flush()
        let batches = recorder.take()
        #expect(batches.count == 1)
        guard let batch = batches.first else { return }
        #expect(batch.deletions.count == 4_000 && batch.insertions.count == 4_000 && batch.reloads.count >= 3_000)
        // Rows that stay keep the elements they had: a marker payload survives.
        var rows = Array(batch.old).map { row in var row = row; row.payload = row.payload == 0 && row.id % 7 == 0 ? 9 : row.payload; return row }
        batch.apply(to: &rows)
        let expected = Array(batch.new)
        #expect(rows.map(\.id) == expected.map(\.id))
        let fromNew = Set(batch.reloads).union(batch.insertions)
        #expect(fromNew.allSatisfy { rows[$0] == expected[$0] })
        #expect(rows.indices.allSatisfy { offset in
            fromNew.contains(offset) || rows[offset].payload == (expected[offset].id % 7 == 0 && expected[offset].payload == 0 ? 9 : expected[offset].payload)
        })
    }
}

/// Distinct random ids.
enum Rows {
    static func distinct(_ count: Int, below upperBound: Int, using rng: inout SplitMix64) -> [Int] {
        var picked = Set<Int>()
        var ids: [Int] = []
        while ids.count < count {
            let id = rng.int(in: 0..<upperBound)
            if picked.insert(id).inserted { ids.append(id) }
        }
        return ids
    }
}

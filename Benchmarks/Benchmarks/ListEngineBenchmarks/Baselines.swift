import Benchmark
import BenchmarkSupport
import ListEngine

/// What the engine replaces, measured on the `sorted1m-batch` shape scaled to 10,000
/// rows (50 new ids and 50 re-keyed rows added, then 10 ids removed): at a million rows
/// these baselines would take minutes.
func registerBaselines() {
    // T21TableViewDataSource's approach: find each item by linear search, replace or
    // append it, and re-sort the whole array after every item; the renderer then
    // reloads everything, which is reported as one reload per row.
    Benchmark(
        "t21-style",
        configuration: Scenario.configuration(iterations: 50, seconds: 10),
        closure: { (benchmark: Benchmark, shape: SmallBatchShape) in
            var engine = T21StyleEngine(rows: shape.oldRows)
            engine.rows.withUnsafeMutableBufferPointer { _ in }  // copy outside the measurement
            benchmark.startMeasurement()
            engine.add(shape.added)
            engine.remove(ids: shape.removedIDs)
            benchmark.stopMeasurement()
            check(engine.rows == shape.newRows, "t21-style rows differ from the expected result")
            Scenario.record(BatchTotals(batches: 1, reloads: engine.rows.count), in: benchmark)
        },
        setup: { SmallBatchShape() }
    )

    // The standard library's whole-array diff of the id sequences, with moves inferred.
    // It knows nothing of content, so it reports no reloads.
    Benchmark(
        "stdlib-difference",
        configuration: Scenario.configuration(iterations: 50, seconds: 10),
        closure: { (benchmark: Benchmark, shape: SmallBatchShape) in
            let oldIDs = shape.oldRows.map(\.id), newIDs = shape.newRows.map(\.id)
            benchmark.startMeasurement()
            let difference = newIDs.difference(from: oldIDs).inferringMoves()
            benchmark.stopMeasurement()
            var totals = BatchTotals(batches: 1)
            for change in difference {
                switch change {
                case .remove(_, _, let associated): if associated == nil { totals.deletions += 1 } else { totals.moves += 1 }
                case .insert(_, _, let associated): if associated == nil { totals.insertions += 1 }
                }
            }
            check(oldIDs.applying(difference) == newIDs, "the difference does not apply")
            check(totals.insertions == 50 && totals.deletions == 10, "stdlib difference: \(totals)")
            Scenario.record(totals, in: benchmark)
        },
        setup: { SmallBatchShape() }
    )
}

/// The `sorted1m-batch` shape on 10,000 rows, with the expected result.
struct SmallBatchShape: Sendable {
    let oldRows: [Row]
    let added: [Row]
    let removedIDs: [String]
    let newRows: [Row]

    init() {
        let base = Rows.make(count: 10_000, seed: Seeds.tenThousand)
        oldRows = base.sorted(by: <)
        var rng = SplitMix64(seed: 10)
        let picked = Rows.distinctOffsets(count: 60, in: base.count, rng: &rng)
        var added = Rows.make(count: 50, prefix: "n", seed: 11)
        for offset in picked.prefix(50) {
            added.append(Row(uid: base[offset].uid, value: base[offset].value, index: rng.unitDouble()))
        }
        added.shuffle(using: &rng)
        self.added = added
        removedIDs = picked.suffix(10).map { base[$0].uid }
        var expected: [String: Row] = [:]
        for row in base { expected[row.id] = row }
        for row in added { expected[row.id] = row }
        for id in removedIDs { expected[id] = nil }
        newRows = expected.values.sorted(by: <)
    }
}

/// A sorted array engine in the style of T21TableViewDataSource.
struct T21StyleEngine {
    var rows: [Row]

    mutating func add(_ items: [Row]) {
        for item in items {
            if let position = rows.firstIndex(where: { $0.uid == item.uid }) {
                rows[position] = item
            } else {
                rows.append(item)
            }
            rows.sort(by: <)
        }
    }

    mutating func remove(ids: [String]) {
        for id in ids {
            if let position = rows.firstIndex(where: { $0.uid == id }) {
                rows.remove(at: position)
            }
        }
    }
}

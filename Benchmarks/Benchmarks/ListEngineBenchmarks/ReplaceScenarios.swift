import Benchmark
import BenchmarkSupport
import ListEngine

/// Whole-list changes of a 100,000-row list.
func registerReplaceScenarios() {
    // DifferenceKit's published benchmark shape, as a refresh from a server: 100,000
    // rows; the new rows drop 10,000 of them, bring 10,000 new ones, and give 2,000 a
    // new place (a new sort index). They are passed in their new row order, as a
    // server returns them. Timed from `replaceAll` until the renderer has the batch;
    // untimed afterwards, `replaceAll` back to the original rows, and the list settles.
    for contentUpdates in [0, 10_000] {
        let name = contentUpdates == 0 ? "replace-100k" : "replace-100k-updates"
        Benchmark(
            name,
            configuration: Scenario.configuration(iterations: 100, seconds: 10),
            closure: { (benchmark: Benchmark, fixture: ReplaceFixture) in
                let source = fixture.source, observer = fixture.observer
                let version = observer.latestVersion + 1
                benchmark.startMeasurement()
                source.replaceAll(with: fixture.replacement)
                let snapshot = observer.wait(forVersion: version)
                benchmark.stopMeasurement()

                let totals = observer.takeTotals()
                check(totals.batches == 1 && totals.deletions == 10_000 && totals.insertions == 10_000, "\(name): \(totals)")
                check(totals.reloads == 2_000 + contentUpdates, "\(name): \(totals.reloads) reloads")
                check(totals.moves <= 2_000, "\(name) moved \(totals.moves) rows for 2,000 re-keyed ones")
                check(snapshot.elementsEqual(fixture.replacement), "\(name): rows differ from the replacement")
                Scenario.record(totals, in: benchmark)

                source.replaceAll(with: fixture.original)
                observer.wait(forVersion: version + 1)
                _ = observer.takeTotals()
                source.settle()
            },
            setup: { ReplaceFixture(contentUpdates: contentUpdates) }
        )
    }

    // The same change as `replace-100k` written as a `remove(ids:)` of the 10,000 rows
    // that go and an `add` of the 12,000 that come or move, which reach the renderer as
    // one batch: given in one `perform`, which applies them as one run of calls, exactly
    // as two such calls that coalesce are applied. Its floor, `two-batch-replace-100k`,
    // is the same two calls delivered as two batches (each waited for). Untimed
    // afterwards, `replaceAll` back to the original rows, and the list settles.
    for coalesced in [true, false] {
        let name = coalesced ? "coalesced-replace-100k" : "two-batch-replace-100k"
        Benchmark(
            name,
            configuration: Scenario.configuration(iterations: 100, seconds: 10),
            closure: { (benchmark: Benchmark, fixture: ReplaceFixture) in
                let source = fixture.source, observer = fixture.observer
                let version = observer.latestVersion + 1
                let (removed, added) = (fixture.removedIDs, fixture.added)
                benchmark.startMeasurement()
                let snapshot: ListSnapshot<Row>
                if coalesced {
                    source.perform { edits in
                        edits.remove(ids: removed)
                        edits.add(added)
                    }
                    snapshot = observer.wait(forVersion: version)
                } else {
                    source.remove(ids: removed)
                    observer.wait(forVersion: version)
                    source.add(added)
                    snapshot = observer.wait(forVersion: version + 1)
                }
                benchmark.stopMeasurement()

                let totals = observer.takeTotals()
                check(totals.batches == (coalesced ? 1 : 2) && totals.deletions == 10_000 && totals.insertions == 10_000, "\(name): \(totals)")
                check(totals.reloads == 2_000 && totals.moves <= 2_000, "\(name): \(totals)")
                check(snapshot.elementsEqual(fixture.replacement), "\(name): rows differ from the replacement")
                Scenario.record(totals, in: benchmark)

                source.replaceAll(with: fixture.original)
                observer.wait(forVersion: snapshot.version + 1)
                _ = observer.takeTotals()
                source.settle()
            },
            setup: { ReplaceFixture(contentUpdates: 0) }
        )
    }

    // `sort(by:)` of the 100,000 rows by payload instead of index: timed until the
    // renderer has the batch; untimed afterwards, sorting back by index, and the list
    // settles.
    Benchmark(
        "resort-100k",
        configuration: Scenario.configuration(iterations: 50, seconds: 10),
        closure: { (benchmark: Benchmark, fixture: ResortFixture) in
            let source = fixture.source, observer = fixture.observer
            let version = observer.latestVersion + 1
            benchmark.startMeasurement()
            source.sort { $0.value < $1.value }
            let snapshot = observer.wait(forVersion: version)
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(totals.batches == 1 && totals.insertions == 0 && totals.deletions == 0 && totals.reloads == 0, "resort-100k: \(totals)")
            check(totals.moves == fixture.minimumMoves, "resort-100k moved \(totals.moves) rows, the minimum is \(fixture.minimumMoves)")
            var rng = SplitMix64(seed: UInt64(version))
            for _ in 0 ..< 200 {
                let offset = rng.int(in: 0 ..< snapshot.count - 1)
                check(snapshot[offset].value < snapshot[offset + 1].value, "resort-100k: rows \(offset), \(offset + 1) out of order")
            }
            Scenario.record(totals, in: benchmark)

            source.sort { $0 < $1 }
            observer.wait(forVersion: version + 1)
            _ = observer.takeTotals()
            source.settle()
        },
        setup: { ResortFixture() }
    )
}

/// A 100,000-row list with a renderer attached, and the rows that replace its rows.
final class ReplaceFixture: Sendable {
    let source: ListDataSource<Row>
    let observer: BatchObserver
    /// The original rows, in row order.
    let original: [Row]
    /// The new rows, in row order.
    let replacement: [Row]
    /// The same change as calls: the ids that go, and the rows that come or move.
    let removedIDs: [String]
    let added: [Row]

    init(contentUpdates: Int) {
        let base = Rows.make(count: 100_000, seed: Seeds.hundredThousand)
        original = base.sorted(by: <)
        var rng = SplitMix64(seed: 3)
        let picked = Rows.distinctOffsets(count: 12_000 + contentUpdates, in: base.count, rng: &rng)
        var rows = base
        for offset in picked[10_000 ..< 12_000] {
            rows[offset].index = rng.unitDouble()
        }
        for offset in picked[12_000...] {
            rows[offset].value += 1_000_000
        }
        let deleted = Set(picked.prefix(10_000))
        removedIDs = picked.prefix(10_000).map { base[$0].uid }
        let newRows = Rows.make(count: 10_000, prefix: "n", seed: 4)
        added = picked[10_000 ..< 12_000].map { rows[$0] } + newRows
        rows = rows.indices.filter { !deleted.contains($0) }.map { rows[$0] }
        rows += newRows
        replacement = rows.sorted(by: <)
        source = ListDataSource(base)
        observer = source.attachObserver()
    }
}

/// A 100,000-row list with a renderer attached, and the fewest moves re-sorting it by
/// payload needs (rows minus a longest increasing subsequence).
final class ResortFixture: Sendable {
    let source: ListDataSource<Row>
    let observer: BatchObserver
    let minimumMoves: Int

    init() {
        let base = Rows.make(count: 100_000, seed: Seeds.hundredThousand)
        // Payloads in current row order; those in a longest increasing run stay.
        let payloads = base.sorted(by: <).map(\.value)
        var tails: [Int] = []
        for payload in payloads {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < payload { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(payload) } else { tails[low] = payload }
        }
        minimumMoves = payloads.count - tails.count
        source = ListDataSource(base)
        observer = source.attachObserver()
    }
}

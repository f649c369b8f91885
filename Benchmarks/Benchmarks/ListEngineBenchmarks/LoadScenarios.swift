import Benchmark
import BenchmarkSupport
import Dispatch
import Foundation
import ListEngine

/// Filling an empty list with 1,000,000 rows.
func registerLoadScenarios() {
    // One `add` of the 1,000,000 unsorted rows of `floor-sort-1m` into an empty list
    // with a renderer attached: timed until the renderer has the batch.
    Benchmark(
        "bulk-load-1m",
        configuration: Scenario.configuration(iterations: 20, seconds: 20),
        closure: { (benchmark: Benchmark, rows: [Row]) in
            let source = ListDataSource<Row>()
            let observer = source.attachObserver()
            benchmark.startMeasurement()
            source.add(rows)
            let snapshot = observer.wait { $0.count == 1_000_000 }
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(totals.batches == 1 && totals.insertions == 1_000_000 && totals.moves == 0, "bulk-load-1m: \(totals)")
            snapshot.spotCheckOrder(samples: 1_000, seed: 5)
            Scenario.record(totals, in: benchmark)
        },
        setup: { Rows.make(count: 1_000_000, seed: Seeds.million) }
    )

    // The same 1,000,000 rows added one `add` call per row from 4 threads (250,000
    // each) into an empty list with a renderer attached: timed from starting the
    // threads until `flush()` returns after they are done.
    Benchmark(
        "concurrent-upserts",
        configuration: Scenario.configuration(iterations: 10, seconds: 30),
        closure: { (benchmark: Benchmark, rows: [Row]) in
            let source = ListDataSource<Row>()
            let observer = source.attachObserver()
            let done = DispatchSemaphore(value: 0)
            benchmark.startMeasurement()
            for thread in 0 ..< 4 {
                Thread {
                    for row in rows[thread * 250_000 ..< (thread + 1) * 250_000] { source.add(row) }
                    done.signal()
                }.start()
            }
            for _ in 0 ..< 4 { done.wait() }
            let flushed = DispatchSemaphore(value: 0)
            let snapshot = SnapshotBox()
            Task {
                snapshot.value = await source.flush()
                flushed.signal()
            }
            flushed.wait()
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(snapshot.value?.count == 1_000_000 && totals.insertions == 1_000_000 && totals.moves == 0, "concurrent-upserts: \(totals)")
            snapshot.value?.spotCheckOrder(samples: 1_000, seed: 6)
            Scenario.record(totals, in: benchmark)
        },
        setup: { Rows.make(count: 1_000_000, seed: Seeds.million) }
    )
}

/// Carries the flushed snapshot out of the task.
///
/// `@unchecked Sendable` is safe: the task writes `value` before it signals the
/// semaphore, and the benchmark thread reads it only after waiting on that semaphore,
/// which orders the write before the read.
private final class SnapshotBox: @unchecked Sendable {
    var value: ListSnapshot<Row>?
}

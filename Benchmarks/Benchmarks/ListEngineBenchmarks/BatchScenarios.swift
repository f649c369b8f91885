import Benchmark
import BenchmarkSupport
import ListEngine
import Synchronization

/// Incremental changes to a 1,000,000-row list.
func registerBatchScenarios() {
    // One `add` of 5,000 new ids and 5,000 re-keyed rows, then a `remove` of 1,000 ids.
    // Timed from the first call until the renderer has been handed the batch (or both
    // batches, if the diff queue started before the `remove` arrived) that brings the
    // list to 1,004,000 rows. Untimed afterwards: the list settles (the renderer frees
    // what the change replaced), the change is undone and the list settles again, so
    // every iteration starts from the same list with nothing left to do, and the peak
    // memory is that of one change at a time. Before the first step the list is built
    // and settled, its resident memory is read as the steady memory, and the process's
    // peak is reset to it, so the peak recorded is the batches', not the build's.
    Benchmark(
        "sorted1m-batch",
        configuration: Scenario.configuration(iterations: 30, seconds: 20, metrics: Scenario.batchMetrics + [Scenario.steadyMemory]),
        closure: { (benchmark: Benchmark, fixture: SortedBatchFixture) in
            let source = fixture.source, observer = fixture.observer
            benchmark.measurement(Scenario.steadyMemory, fixture.steadyResidentBytes())
            benchmark.startMeasurement()
            source.add(fixture.added)
            source.remove(ids: fixture.removedIDs)
            let snapshot = observer.wait { $0.count == 1_004_000 }
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(totals.insertions == 5_000 && totals.deletions == 1_000 && totals.reloads == 5_000, "sorted1m-batch: \(totals)")
            check(totals.moves <= 5_000, "sorted1m-batch moved \(totals.moves) rows for 5,000 re-keyed ones")
            snapshot.spotCheckOrder(samples: 200, seed: UInt64(snapshot.version))
            for row in fixture.added.prefix(100) {
                check(snapshot[id: row.id] == row, "row \(row.id) is not the added one")
            }
            for id in fixture.removedIDs.prefix(100) {
                check(!snapshot.contains(id: id), "removed row \(id) is still there")
            }
            Scenario.record(totals, in: benchmark)

            source.settle()
            source.remove(ids: fixture.newIDs)
            source.add(fixture.restored)
            observer.wait { $0.count == 1_000_000 }
            _ = observer.takeTotals()
            source.settle()
        },
        setup: { SortedBatchFixture() }
    )

    // One re-keyed update of a random row: timed from `add` until the renderer has been
    // handed its batch, which the benchmark thread watches for (up to 1 ms) rather than
    // sleeps until, so being woken is not counted. Each iteration re-keys another row,
    // to a fresh random index. The list is not settled between iterations, as the
    // large scenarios are: freeing what one row's change replaced takes a few
    // microseconds, and waiting for it would let the queues' threads fall idle, so
    // every iteration would time waking them.
    Benchmark(
        "single-upsert-1m",
        configuration: Scenario.configuration(iterations: 5_000, seconds: 10, warmup: 10),
        closure: { (benchmark: Benchmark, fixture: SingleUpsertFixture) in
            let iteration = fixture.nextIteration()
            var rng = SplitMix64(seed: UInt64(iteration) &+ 99)
            let number = rng.int(in: 0 ..< 1_000_000)
            let item = Row(uid: Rows.uid(number), value: number, index: rng.unitDouble())
            let version = fixture.observer.latestVersion + 1

            benchmark.startMeasurement()
            fixture.source.add(item)
            let snapshot = fixture.observer.wait(forVersion: version, spinning: .milliseconds(1))
            benchmark.stopMeasurement()

            let totals = fixture.observer.takeTotals()
            check(totals.batches == 1 && totals.reloads == 1 && totals.moves <= 1 && totals.insertions == 0 && totals.deletions == 0, "single upsert: \(totals)")
            check(snapshot.count == 1_000_000 && snapshot[id: item.id] == item, "single upsert: row not stored")
            if let offset = snapshot.index(of: item.id) {
                check(offset == 0 || snapshot[offset - 1] < item, "single upsert: row sorts before its predecessor")
                check(offset == snapshot.count - 1 || item < snapshot[offset + 1], "single upsert: row sorts after its successor")
            } else {
                check(false, "single upsert: index(of:) misses the row")
            }
            Scenario.record(totals, in: benchmark)
        },
        setup: { SingleUpsertFixture() }
    )
}

/// The change of `sorted1m-batch`: 5,000 new rows and 5,000 re-keyed ones added, then
/// 1,000 rows removed, from a list of 1,000,000 rows.
struct SortedBatchChange: Sendable {
    /// The 1,000,000 rows the list starts with, in generation order.
    let base: [Row]
    /// 5,000 rows with new ids and 5,000 existing rows with a new index, shuffled.
    let added: [Row]
    /// 1,000 ids of existing rows that are not re-keyed.
    let removedIDs: [String]
    /// The ids of the 5,000 new rows.
    let newIDs: [String]
    /// The re-keyed and the removed rows as they were.
    let restored: [Row]

    init() {
        let base = Rows.make(count: 1_000_000, seed: Seeds.million)
        var rng = SplitMix64(seed: 1)
        let picked = Rows.distinctOffsets(count: 6_000, in: base.count, rng: &rng)
        let fresh = Rows.make(count: 5_000, prefix: "n", seed: 2)
        var added = fresh
        for offset in picked.prefix(5_000) {
            added.append(Row(uid: base[offset].uid, value: base[offset].value, index: rng.unitDouble()))
        }
        added.shuffle(using: &rng)
        self.added = added
        removedIDs = picked.suffix(1_000).map { base[$0].uid }
        newIDs = fresh.map(\.uid)
        restored = picked.map { base[$0] }
        self.base = base
    }
}

/// A 1,000,000-row list with a renderer attached, plus the `sorted1m-batch` change.
final class SortedBatchFixture: Sendable {
    let source: ListDataSource<Row>
    let observer: BatchObserver
    let added: [Row]
    let removedIDs: [String]
    let newIDs: [String]
    let restored: [Row]

    /// The resident memory read before the first step.
    private let steady = Mutex<Int?>(nil)

    init() {
        let change = SortedBatchChange()
        added = change.added
        removedIDs = change.removedIDs
        newIDs = change.newIDs
        restored = change.restored
        source = ListDataSource(change.base)
        observer = source.attachObserver()
    }

    /// The process's resident memory with the list built and settled, read at the first
    /// call (after the rows it was built from are gone), which also resets the process's
    /// peak to it; the same figure at every later call.
    func steadyResidentBytes() -> Int {
        if let bytes = steady.withLock({ $0 }) { return bytes }
        source.settle()
        ProcessMemory.resetPeak()
        let bytes = ProcessMemory.residentBytes ?? 0
        steady.withLock { $0 = bytes }
        return bytes
    }
}

/// A 1,000,000-row list with a renderer attached.
final class SingleUpsertFixture: Sendable {
    let source: ListDataSource<Row>
    let observer: BatchObserver
    private let iterations = Atomic<Int>(0)

    init() {
        source = ListDataSource(Rows.make(count: 1_000_000, seed: Seeds.million))
        observer = source.attachObserver()
    }

    func nextIteration() -> Int {
        iterations.add(1, ordering: .relaxed).newValue
    }
}

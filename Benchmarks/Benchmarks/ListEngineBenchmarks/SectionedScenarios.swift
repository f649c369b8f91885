import Benchmark
import BenchmarkSupport
import Dispatch
import ListEngine
import Synchronization

/// The batch scenarios on a sectioned list, each beside its flat twin in the same run.
///
/// Sections are tiers of the sort index (`index` in `0 ..< 1`), so a re-keyed row mostly
/// lands in another section and must move in index-path terms.
func registerSectionedScenarios() {
    // `sorted1m-batch`'s change on 1,000,000 rows in 1,000 sections: timed from the first
    // call until a sectioned renderer has been handed the batch in index paths.
    Benchmark(
        "sectioned-sorted1m-batch",
        configuration: Scenario.configuration(iterations: 30, seconds: 20),
        closure: { (benchmark: Benchmark, fixture: SectionedBatchFixture) in
            let source = fixture.source, observer = fixture.observer.flat
            benchmark.startMeasurement()
            source.add(fixture.change.added)
            source.remove(ids: fixture.change.removedIDs)
            let snapshot = observer.wait { $0.count == 1_004_000 }
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(totals.insertions == 5_000 && totals.deletions == 1_000 && totals.reloads == 5_000, "sectioned-sorted1m-batch: \(totals)")
            check(totals.moves <= 5_000, "sectioned-sorted1m-batch moved \(totals.moves) rows for 5,000 re-keyed ones")
            snapshot.spotCheckOrder(samples: 200, seed: UInt64(snapshot.version))
            let sections = fixture.observer.latestSectionCount
            check(sections > 990 && sections <= 1_000, "sectioned-sorted1m-batch: \(sections) sections")
            Scenario.record(totals, in: benchmark)

            source.remove(ids: fixture.change.newIDs)
            source.add(fixture.change.restored)
            observer.wait { $0.count == 1_000_000 }
            _ = observer.takeTotals()
            source.rows.settle()
        },
        setup: { SectionedBatchFixture(sections: 1_000) }
    )

    // One re-keyed row that changes section, in a 1,000,000-row list of 10,000 sections:
    // `single-upsert-1m`'s timing, with a sectioned renderer.
    Benchmark(
        "sectioned-single-upsert-1m",
        configuration: Scenario.configuration(iterations: 5_000, seconds: 10, warmup: 10),
        closure: { (benchmark: Benchmark, fixture: SectionedSingleUpsertFixture) in
            let iteration = fixture.nextIteration()
            var rng = SplitMix64(seed: UInt64(iteration) &+ 99)
            let number = rng.int(in: 0 ..< 1_000_000)
            let observer = fixture.observer.flat
            guard let current = observer.latest?[id: Rows.uid(number)] else { fatalError("row \(number) is missing") }
            // A new index in another section: one row's move across sections.
            var index = rng.unitDouble()
            while fixture.section(of: index) == fixture.section(of: current.index) { index = rng.unitDouble() }
            let item = Row(uid: Rows.uid(number), value: number, index: index)
            let version = observer.latestVersion + 1

            benchmark.startMeasurement()
            fixture.source.add(item)
            let snapshot = observer.wait(forVersion: version, spinning: .milliseconds(1))
            benchmark.stopMeasurement()

            let totals = observer.takeTotals()
            check(totals.batches == 1 && totals.reloads == 1 && totals.moves == 1 && totals.insertions == 0 && totals.deletions == 0, "sectioned single upsert: \(totals)")
            check(snapshot.count == 1_000_000 && snapshot[id: item.id] == item, "sectioned single upsert: row not stored")
            Scenario.record(totals, in: benchmark)
        },
        setup: { SectionedSingleUpsertFixture(sections: 10_000) }
    )
}

/// A sectioned renderer for the scenarios: counts the flat form of each batch with a
/// ``BatchObserver`` and keeps the latest number of sections.
final class SectionedBatchObserver: SectionedListRenderer {
    let flat = BatchObserver()
    private let sectionCount = Atomic<Int>(0)

    func render(_ batch: SectionedChangeBatch<Int, Row>) {
        sectionCount.store(batch.new.sections.count, ordering: .relaxed)
        flat.render(batch.rows)
    }

    var latestSectionCount: Int { sectionCount.load(ordering: .relaxed) }
}

/// A 1,000,000-row list in `sections` sections by tier of the sort index, with a
/// sectioned renderer attached, plus the `sorted1m-batch` change.
final class SectionedBatchFixture: Sendable {
    let source: SectionedListDataSource<Int, Row>
    let observer = SectionedBatchObserver()
    let change = SortedBatchChange()

    init(sections: Int) {
        source = SectionedListDataSource(sectionedBy: { Int($0.index * Double(sections)) })
        source.add(change.base)
        source.attach(observer)
        observer.flat.wait { $0.count == 1_000_000 }
        _ = observer.flat.takeTotals()
    }
}

/// A 1,000,000-row list in `sections` sections by tier of the sort index, with a
/// sectioned renderer attached.
final class SectionedSingleUpsertFixture: Sendable {
    let source: SectionedListDataSource<Int, Row>
    let observer = SectionedBatchObserver()
    let sections: Int
    private let iterations = Atomic<Int>(0)

    init(sections: Int) {
        self.sections = sections
        source = SectionedListDataSource(sectionedBy: { Int($0.index * Double(sections)) })
        source.add(Rows.make(count: 1_000_000, seed: Seeds.million))
        source.attach(observer)
        observer.flat.wait { $0.count == 1_000_000 }
        _ = observer.flat.takeTotals()
    }

    func section(of index: Double) -> Int { Int(index * Double(sections)) }

    func nextIteration() -> Int {
        iterations.add(1, ordering: .relaxed).newValue
    }
}

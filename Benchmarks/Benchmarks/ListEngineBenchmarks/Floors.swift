import Benchmark
import BenchmarkSupport
import ListEngine

/// The reference measurements the targets are ratios to: the least work any engine
/// must do for the scenario, done directly on arrays.
func registerFloors() {
    // One two-pointer pass over two sorted arrays of the same 1,000,000 rows, classifying
    // each row as only-left, only-right or in both by the rows' `<`: the walk every
    // whole-array diff of two sorted snapshots needs at least.
    Benchmark(
        "floor-merge-walk-1m",
        configuration: Scenario.configuration(iterations: 50, seconds: 10),
        closure: { (benchmark: Benchmark, arrays: ([Row], [Row])) in
            let (left, right) = arrays
            benchmark.startMeasurement()
            var i = 0, j = 0, both = 0, onlyLeft = 0, onlyRight = 0
            while i < left.count && j < right.count {
                if left[i] < right[j] {
                    onlyLeft += 1
                    i += 1
                } else if right[j] < left[i] {
                    onlyRight += 1
                    j += 1
                } else {
                    both += 1
                    i += 1
                    j += 1
                }
            }
            onlyLeft += left.count - i
            onlyRight += right.count - j
            benchmark.stopMeasurement()
            blackHole(both)
            Scenario.recordPeakMemory(in: benchmark)
            check(both == 1_000_000 && onlyLeft == 0 && onlyRight == 0, "merge walk matched \(both) of 1,000,000 rows")
        },
        setup: { () -> ([Row], [Row]) in
            let sorted = Rows.make(count: 1_000_000, seed: Seeds.million).sorted(by: <)
            return (sorted, sorted.map { $0 })  // same items, separate storage
        }
    )

    // `Array.sort()` of the same 1,000,000 unsorted rows that `bulk-load-1m` adds.
    Benchmark(
        "floor-sort-1m",
        configuration: Scenario.configuration(iterations: 20, seconds: 15),
        closure: { (benchmark: Benchmark, unsorted: [Row]) in
            var rows = unsorted
            rows.withUnsafeMutableBufferPointer { _ in }  // copy outside the measurement
            benchmark.startMeasurement()
            rows.sort(by: <)
            benchmark.stopMeasurement()
            blackHole(rows)
            Scenario.recordPeakMemory(in: benchmark)
            check(rows.count == 1_000_000, "sorted \(rows.count) rows")
            var rng = SplitMix64(seed: 7)
            for _ in 0 ..< 1_000 {
                let offset = rng.int(in: 0 ..< rows.count - 1)
                check(rows[offset] < rows[offset + 1], "rows \(offset), \(offset + 1) out of order")
            }
        },
        setup: { Rows.make(count: 1_000_000, seed: Seeds.million) }
    )

    // A `[ID: Int]` of the 100,000 ids of `replace-100k`, with reserved capacity: the
    // cheapest way to know which ids two snapshots share.
    Benchmark(
        "floor-dictionary-100k",
        configuration: Scenario.configuration(iterations: 200, seconds: 5),
        closure: { (benchmark: Benchmark, ids: [String]) in
            benchmark.startMeasurement()
            var offsets: [String: Int] = [:]
            offsets.reserveCapacity(ids.count)
            for (offset, id) in ids.enumerated() { offsets[id] = offset }
            benchmark.stopMeasurement()
            blackHole(offsets)
            Scenario.recordPeakMemory(in: benchmark)
            check(offsets.count == 100_000 && offsets[ids[12_345]] == 12_345, "dictionary holds \(offsets.count) ids")
        },
        setup: { Rows.make(count: 100_000, seed: Seeds.hundredThousand).map(\.id) }
    )
}

/// Seeds of the generated inputs, shared so that floors and scenarios use the same rows.
enum Seeds {
    static let million: UInt64 = 1_000_000
    static let hundredThousand: UInt64 = 100_000
    static let tenThousand: UInt64 = 10_000
}

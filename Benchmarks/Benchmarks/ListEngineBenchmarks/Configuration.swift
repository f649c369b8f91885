import Benchmark
import BenchmarkSupport
import Foundation

/// Settings shared by every scenario.
enum Scenario {
    /// Custom metrics: the sizes of the batches a scenario's measured step produced,
    /// summed over the batches it was delivered in.
    static let deletions = BenchmarkMetric.custom("batch-deletions", useScalingFactor: false)
    static let insertions = BenchmarkMetric.custom("batch-insertions", useScalingFactor: false)
    static let moves = BenchmarkMetric.custom("batch-moves", useScalingFactor: false)
    static let reloads = BenchmarkMetric.custom("batch-reloads", useScalingFactor: false)

    static let batchMetrics = [deletions, insertions, moves, reloads]

    /// Custom metrics of `window-scroll-1m`: the mean time per page, in nanoseconds, of
    /// the first 10, of the next 10 (the first pages the window is trimmed after) and of
    /// the last 10 pages of the downward pass.
    static let firstPages = BenchmarkMetric.custom("page-time-first-10", useScalingFactor: false)
    static let firstTrimmedPages = BenchmarkMetric.custom("page-time-11-20", useScalingFactor: false)
    static let lastPages = BenchmarkMetric.custom("page-time-last-10", useScalingFactor: false)

    /// The process's peak resident memory in bytes (`VmHWM`), read after each measured
    /// step. Each benchmark runs in a process of its own, so this is the scenario's peak.
    ///
    /// Not package-benchmark's `peakMemoryResident`: that metric starts a thread that
    /// reads `/proc` every 5 ms during the whole run, and on two cores that thread adds
    /// about half again to a 60 µs step (measured on `single-upsert-1m`). The kernel
    /// keeps the peak anyway; reading it once per iteration, outside the measured
    /// interval, leaves the timings alone.
    static let peakMemory = BenchmarkMetric.custom("peak-resident-bytes", useScalingFactor: false)

    /// The process's resident memory in bytes (`VmRSS`) with the scenario's list built
    /// and settled, before its first step: what `sorted1m-batch`'s peak is measured
    /// against.
    static let steadyMemory = BenchmarkMetric.custom("steady-resident-bytes", useScalingFactor: false)

    /// The iteration cap from `LISTENGINE_BENCH_MAX_ITERATIONS` (CI sets it to 1 so the
    /// suite only proves it still builds, runs and passes its result checks), else `fallback`.
    static func maxIterations(_ fallback: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment["LISTENGINE_BENCH_MAX_ITERATIONS"],
              let value = Int(text), value > 0 else { return fallback }
        return min(value, fallback)
    }

    /// Wall clock in nanoseconds, peak resident memory in bytes, and the batch sizes
    /// (or other custom `metrics`): fixed units, so `run.sh` can read the exported
    /// percentiles without guessing.
    static func configuration(iterations: Int, seconds: Int, warmup: Int = 1, metrics: [BenchmarkMetric] = batchMetrics) -> Benchmark.Configuration {
        let maxIterations = maxIterations(iterations)
        var units: [BenchmarkMetric: BenchmarkUnits] = [peakMemory: .count]
        for metric in metrics { units[metric] = .count }
        return Benchmark.Configuration(
            metrics: [.wallClock, peakMemory] + metrics,
            timeUnits: .nanoseconds,
            units: units,
            warmupIterations: min(warmup, maxIterations),
            maxDuration: .seconds(seconds),
            maxIterations: maxIterations
        )
    }

    /// Records the batch sizes of one measured step, and the peak memory so far.
    static func record(_ totals: BatchTotals, in benchmark: Benchmark) {
        benchmark.measurement(deletions, totals.deletions)
        benchmark.measurement(insertions, totals.insertions)
        benchmark.measurement(moves, totals.moves)
        benchmark.measurement(reloads, totals.reloads)
        recordPeakMemory(in: benchmark)
    }

    /// Records the process's peak resident memory so far. Call after `stopMeasurement()`.
    static func recordPeakMemory(in benchmark: Benchmark) {
        guard let bytes = ProcessMemory.peakResidentBytes else { return }
        benchmark.measurement(peakMemory, bytes)
    }
}

/// Stops the benchmark run when a result is wrong: a fast but broken path must not
/// produce a number.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("benchmark result check failed: \(message())", file: file, line: line)
    }
}

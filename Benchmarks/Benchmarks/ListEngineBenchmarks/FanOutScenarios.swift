import Benchmark
import BenchmarkSupport

/// Many small lists given the same changes: the engine's cost per list, and its threads.
func registerFanOutScenarios() {
    // 1,000 lists of 50 rows, each with a renderer attached without a queue, all given
    // the same one-row change (which moves the row) every 20 ms, 50 times, then
    // flushed (see `FanOut`): CPU time of the whole process per list per change, and
    // the most threads the process had.
    Benchmark(
        "fanout-1000-lists-paced",
        configuration: Scenario.configuration(iterations: 5, seconds: 60, warmup: 0, metrics: Scenario.fanOutMetrics),
        closure: { (benchmark: Benchmark) async in
            benchmark.startMeasurement()
            let result = await FanOut().run(events: 50, interval: .milliseconds(20))
            benchmark.stopMeasurement()
            check(result.batches == 50 * 1_000, "fanout-1000-lists-paced: \(result.batches) batches for 50 changes to 1,000 lists")
            Scenario.record(result, in: benchmark)
        }
    )

    // The same with 200 changes back to back: calls to one list coalesce into fewer
    // batches.
    Benchmark(
        "fanout-1000-lists-back-to-back",
        configuration: Scenario.configuration(iterations: 10, seconds: 60, warmup: 1, metrics: Scenario.fanOutMetrics),
        closure: { (benchmark: Benchmark) async in
            benchmark.startMeasurement()
            let result = await FanOut().run(events: 200, interval: nil)
            benchmark.stopMeasurement()
            check(result.batches >= 1_000, "fanout-1000-lists-back-to-back: \(result.batches) batches")
            Scenario.record(result, in: benchmark)
        }
    )

    // One list of 50 rows: a one-row change, then `flush()`, 2,000 times; the median
    // time of one change and flush.
    Benchmark(
        "edit-flush-50-rows",
        configuration: Scenario.configuration(iterations: 10, seconds: 30, warmup: 1, metrics: [Scenario.editFlushMedian]),
        closure: { (benchmark: Benchmark) async in
            benchmark.startMeasurement()
            let times = await FanOut().editFlushTimes(count: 2_000)
            benchmark.stopMeasurement()
            benchmark.measurement(Scenario.editFlushMedian, times[times.count / 2])
            Scenario.recordPeakMemory(in: benchmark)
        }
    )
}

extension Scenario {
    /// Custom metrics of the fan-out scenarios: CPU nanoseconds per list per change,
    /// and the most threads the process had.
    static let cpuPerWindowEvent = BenchmarkMetric.custom("cpu-ns-per-window-event", useScalingFactor: false)
    static let peakThreads = BenchmarkMetric.custom("peak-threads", useScalingFactor: false)
    static let fanOutMetrics = [cpuPerWindowEvent, peakThreads]

    /// Custom metric of `edit-flush-50-rows`: the median nanoseconds of one change and
    /// flush.
    static let editFlushMedian = BenchmarkMetric.custom("edit-flush-median-ns", useScalingFactor: false)

    static func record(_ result: FanOut.Result, in benchmark: Benchmark) {
        benchmark.measurement(cpuPerWindowEvent, Int(result.cpuPerWindowEvent / .nanoseconds(1)))
        benchmark.measurement(peakThreads, result.peakThreads)
        recordPeakMemory(in: benchmark)
    }
}

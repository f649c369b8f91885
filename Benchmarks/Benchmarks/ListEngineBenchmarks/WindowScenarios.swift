import Benchmark
import BenchmarkSupport
import ListPagination

/// A windowed paginator scrolled through a large keyset source.
func registerWindowScenarios() {
    // A paginator keeping at most 1,000 rows, in pages of 100, scrolled over the
    // 1,000,000 computed rows of a keyset source from the first row to the last and
    // back, one page per step (see `WindowScroll`): the wall clock is both passes; the
    // custom metrics are the mean time per page of the first 10, the next 10 (the first
    // the window is trimmed after) and the last 10 pages down, which should be the same
    // however far the window has moved. Peak memory after 10,000 and after 1,000,000
    // rows is measured in a separate process (`memory-footprint window`).
    Benchmark(
        "window-scroll-1m",
        configuration: Scenario.configuration(iterations: 3, seconds: 180, warmup: 0, metrics: [Scenario.firstPages, Scenario.firstTrimmedPages, Scenario.lastPages]),
        closure: { (benchmark: Benchmark) async in
            var scroll = WindowScroll(source: KeysetRowSource(count: 1_000_000), pageSize: 100, maxLoadedRows: 1_000, prefetchDistance: 20)
            benchmark.startMeasurement()
            await scroll.scrollDown()
            await scroll.scrollUp()
            benchmark.stopMeasurement()

            check(scroll.problems.isEmpty, "window-scroll-1m: \(scroll.problems.joined(separator: "; "))")
            // Down to the last row (the next pages exhausted), up to the first (the
            // previous pages exhausted), every page once each way.
            let (down, up) = (scroll.down, scroll.up)
            check(down.pages == 10_000 && down.endState == .exhausted && down.endWindow == 999_000 ... 999_999,
                  "window-scroll-1m: down \(down.pages) pages to rows \(String(describing: down.endWindow)), \(String(describing: down.endState))")
            check(up.pages == 9_990 && up.endState == .exhausted && up.endWindow == 0 ... 999,
                  "window-scroll-1m: up \(up.pages) pages to rows \(String(describing: up.endWindow)), \(String(describing: up.endState))")
            benchmark.measurement(Scenario.firstPages, Int(down.meanTime(ofFirst: 10) / .nanoseconds(1)))
            benchmark.measurement(Scenario.firstTrimmedPages, Int(down.meanTime(ofSteps: 10 ..< 20) / .nanoseconds(1)))
            benchmark.measurement(Scenario.lastPages, Int(down.meanTime(ofLast: 10) / .nanoseconds(1)))
            Scenario.recordPeakMemory(in: benchmark)
        }
    )
}

import BenchmarkSupport
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

// One fan-out run in a process of its own, for quick figures and for instruction counts
// under `valgrind --tool=callgrind` (two runs that differ only in the number of events
// give the instructions per list per change without the setup):
//
//   fanout EVENTS [INTERVAL_MS [LISTS]]   # INTERVAL_MS 0 (default): back to back; LISTS 1,000
//   fanout --edit-flush COUNT             # one list: one-row edit, then flush(), COUNT times
//   fanout --each-event EVENTS [LISTS]    # each event waited for; no Swift concurrency,
//                                         # so that callgrind can run it (LISTS 200)
//
// The first two modes run on Swift concurrency, so they start on a task; the third runs
// on the main thread alone.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--each-event" {
    let events = arguments.dropFirst().first.flatMap { Int($0) } ?? 20
    let lists = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200
    FanOut(lists: lists).runWaitingForEachEvent(events: events)
    print("fanout-each-event lists \(lists) events \(events) list-changes \(lists * events)")
} else {
    Task {
        await runWithConcurrency(arguments)
        exit(0)
    }
    dispatchMain()
}

func runWithConcurrency(_ arguments: [String]) async {
    if arguments.first == "--edit-flush" {
        let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
        let times = await FanOut().editFlushTimes(count: count)
        func percentile(_ p: Double) -> Int { times[min(times.count - 1, Int(Double(times.count) * p))] }
        print("edit-flush-50rows count \(count) p50-ns \(percentile(0.5)) p90-ns \(percentile(0.9)) p99-ns \(percentile(0.99))")
    } else {
        let events = arguments.first.flatMap { Int($0) } ?? 100
        let milliseconds = arguments.dropFirst().first.flatMap { Int($0) } ?? 0
        let lists = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 1_000
        let result = await FanOut(lists: lists).run(events: events, interval: milliseconds > 0 ? .milliseconds(milliseconds) : nil)
        let perEvent = Double(result.cpuPerWindowEvent / .nanoseconds(1)) / 1_000
        print("fanout lists \(result.lists) events \(result.events) interval-ms \(milliseconds) cpu-us-per-window-event \(perEvent) "
              + "wall-s \(Double(result.wall / .milliseconds(1)) / 1_000) batches \(result.batches) peak-threads \(result.peakThreads)")
    }
}

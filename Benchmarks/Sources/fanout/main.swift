import BenchmarkSupport

// One fan-out run in a process of its own, for instruction counts under
// `valgrind --tool=callgrind` (two runs that differ only in the number of events give
// the instructions per event without the setup) and for quick figures:
//
//   fanout EVENTS [INTERVAL_MS [LISTS]]   # INTERVAL_MS 0 (default): back to back; LISTS 1,000
//   fanout --edit-flush COUNT        # one list: one-row edit, then flush(), COUNT times
let arguments = Array(CommandLine.arguments.dropFirst())
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

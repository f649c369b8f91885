// Turns one run of the ListEngineBenchmarks suite into the performance table.
//
//     benchmark-table <percentiles-dir> [<list-peak-bytes> <array-peak-bytes>
//                     [<window-peak-bytes-10k> <window-peak-bytes-1m>
//                     [<scaling-one-row-ratio> <scaling-batch-ratio>]]]
//
// <percentiles-dir> holds package-benchmark's `--format histogramPercentiles` export
// (one TSV per benchmark and metric). The byte counts come from `memory-footprint`
// (`list` and `array`; `window`). Prints one Markdown table: each scenario's median and
// p90 wall clock, its ratio to the floor measured in the same run, the target ratio,
// `met` or `MISSED`, its peak memory and the batch sizes it reported. For
// `window-scroll-1m` the times are per page (the last 10 pages down, against the first
// 10 as the floor), and a second row compares its peak memory after 1,000,000 rows with
// the peak after 10,000. The fan-out scenarios have absolute targets: CPU per list per
// change, threads, and the median time of one change and flush. Exits 0 whether or not targets are met; exits 1 only when
// there are no results to read.

import Foundation

/// One benchmark's exported percentiles, by metric name.
struct Result {
    var metrics: [String: [Int: Int]] = [:]  // metric → percentile → value

    func value(_ metric: String, percentile: Int) -> Int? { metrics[metric]?[percentile] }
}

/// A row of the table: a scenario and, if it has one, its floor and target.
struct Row {
    let scenario: String
    let floor: String?
    let target: Double?
}

let rows: [Row] = [
    Row(scenario: "sorted1m-batch", floor: "floor-merge-walk-1m", target: 3),
    Row(scenario: "single-upsert-1m", floor: "floor-merge-walk-1m", target: 0.01),
    Row(scenario: "sectioned-sorted1m-batch", floor: "sorted1m-batch", target: 1.25),
    Row(scenario: "sectioned-single-upsert-1m", floor: "single-upsert-1m", target: 1.25),
    Row(scenario: "replace-100k", floor: "floor-dictionary-100k", target: 6),
    Row(scenario: "replace-100k-updates", floor: "floor-dictionary-100k", target: 6),
    Row(scenario: "coalesced-replace-100k", floor: "two-batch-replace-100k", target: 1),
    Row(scenario: "two-batch-replace-100k", floor: nil, target: nil),
    Row(scenario: "resort-100k", floor: nil, target: nil),
    Row(scenario: "bulk-load-1m", floor: "floor-sort-1m", target: 1.5),
    Row(scenario: "concurrent-upserts", floor: "bulk-load-1m", target: 4),
    Row(scenario: "window-scroll-1m", floor: nil, target: nil),
    Row(scenario: "copy-touched-leaves-1m", floor: "floor-merge-walk-1m", target: nil),
    Row(scenario: "find-changed-rows-1m", floor: "floor-merge-walk-1m", target: nil),
    Row(scenario: "dispatch-hand-offs", floor: "floor-merge-walk-1m", target: nil),
    Row(scenario: "floor-merge-walk-1m", floor: nil, target: nil),
    Row(scenario: "floor-sort-1m", floor: nil, target: nil),
    Row(scenario: "floor-dictionary-100k", floor: nil, target: nil),
    Row(scenario: "t21-style", floor: nil, target: nil),
    Row(scenario: "stdlib-difference", floor: nil, target: nil),
]

func readResults(in directory: String) -> [String: Result] {
    var results: [String: Result] = [:]
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for file in files where file.hasSuffix(".histogram.percentiles.tsv") {
        // <baseline>.<target>.<benchmark>.<metric>.histogram.percentiles.tsv
        let parts = file.split(separator: ".").map(String.init)
        guard parts.count >= 7 else { continue }
        let benchmark = parts[parts.count - 5], metric = parts[parts.count - 4]
        guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { continue }
        var percentiles: [Int: Int] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t")
            if fields.count == 2, let percentile = Int(fields[0]), let value = Int(fields[1]) {
                percentiles[percentile] = value
            }
        }
        results[benchmark, default: Result()].metrics[metric] = percentiles
    }
    return results
}

func formatTime(_ nanoseconds: Int?) -> String {
    guard let nanoseconds else { return "—" }
    let value = Double(nanoseconds)
    switch value {
    case ..<1_000: return "\(nanoseconds) ns"
    case ..<1_000_000: return String(format: "%.1f µs", value / 1_000)
    case ..<1_000_000_000: return String(format: "%.1f ms", value / 1_000_000)
    default: return String(format: "%.2f s", value / 1_000_000_000)
    }
}

func formatBytes(_ bytes: Int?) -> String {
    guard let bytes else { return "—" }
    return String(format: "%.0f MB", Double(bytes) / 1_000_000)
}

func formatRatio(_ ratio: Double) -> String {
    ratio < 0.1 ? String(format: "%.4f", ratio) : String(format: "%.2f", ratio)
}

/// `value / floor` formatted, and whether it met `target` ("MISSED (not measured)"
/// when either is missing or the floor is zero).
func judged(_ value: Int?, against floor: Int?, target: Double) -> (ratio: String, status: String) {
    guard let value, let floor, floor > 0 else { return ("—", "MISSED (not measured)") }
    let ratio = Double(value) / Double(floor)
    return (formatRatio(ratio), ratio <= target ? "met" : "MISSED")
}

/// `window-scroll-1m`'s targets: time per page of the last 10 pages at most this many
/// times that of pages 11–20 (the first pages the window is trimmed after, so that both
/// sides carry a trim), and peak memory after 1,000,000 rows at most this many times the
/// peak after 10,000.
let windowTimeTarget = 1.2
let windowMemoryTarget = 1.1

/// The `window-scroll-1m` row: the time per page of the last 10 pages down (median and
/// p90 over the iterations) against pages 11–20 as its floor; and whether it met its
/// target.
func windowScrollLine(_ result: Result?) -> (line: String, met: Bool) {
    let last = result?.value("page-time-last-10", percentile: 50)
    let lastP90 = result?.value("page-time-last-10", percentile: 90)
    let first = result?.value("page-time-11-20", percentile: 50)
    let (ratio, status) = judged(last, against: first, target: windowTimeTarget)
    let memory = formatBytes(result?.value("peak-resident-bytes", percentile: 100))
    let line = "| window-scroll-1m (time per page, last 10 pages vs. pages 11–20) | \(formatTime(last)) | \(formatTime(lastP90)) | pages 11–20: \(formatTime(first)) | \(ratio) | ≤ \(formatRatio(windowTimeTarget)) | \(status) | \(memory) | — |"
    return (line, status == "met")
}

let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard let directory = arguments.first else {
    print("usage: benchmark-table <percentiles-dir> [<list-peak-bytes> <array-peak-bytes> [<window-peak-bytes-10k> <window-peak-bytes-1m>]]")
    exit(2)
}
let results = readResults(in: directory)
guard !results.isEmpty else {
    print("benchmark-table: no `histogramPercentiles` results in \(directory)")
    exit(1)
}

var lines = [
    "| scenario | median | p90 | floor | ratio | target | status | peak memory | batch: deletions / insertions / moves / reloads |",
    "|---|---:|---:|---|---:|---:|---|---:|---|",
]
var missed = 0
for row in rows {
    let result = results[row.scenario]
    if row.scenario == "window-scroll-1m" {
        let (line, met) = windowScrollLine(result)
        lines.append(line)
        if !met { missed += 1 }
        continue
    }
    let median = result?.value("wallClock", percentile: 50)
    let p90 = result?.value("wallClock", percentile: 90)
    var ratio = "—", target = "—", status = "—"
    if let floorName = row.floor {
        var value: Double? = nil
        if let median, let floorMedian = results[floorName]?.value("wallClock", percentile: 50), floorMedian > 0 {
            let measured = Double(median) / Double(floorMedian)
            value = measured
            ratio = formatRatio(measured)
        }
        // A row with a floor but no target is a reference: its ratio is shown, not judged.
        if let goal = row.target {
            target = "≤ \(formatRatio(goal))"
            status = value.map { $0 <= goal ? "met" : "MISSED" } ?? "MISSED (not measured)"
            if status != "met" { missed += 1 }
        }
    }
    let sizes = ["batch-deletions", "batch-insertions", "batch-moves", "batch-reloads"].map { metric in
        result?.value(metric, percentile: 50).map(String.init) ?? "—"
    }
    let memory = formatBytes(result?.value("peak-resident-bytes", percentile: 100))
    lines.append("| \(row.scenario) | \(formatTime(median)) | \(formatTime(p90)) | \(row.floor ?? "—") | \(ratio) | \(target) | \(status) | \(memory) | \(sizes.joined(separator: " / ")) |")
}

// sorted1m-batch's memory: the process's peak over its steps against its resident
// memory with the list built and settled, before the first step.
let batchMemoryTarget = 1.5
do {
    let result = results["sorted1m-batch"]
    let peak = result?.value("peak-resident-bytes", percentile: 100)
    let steady = result?.value("steady-resident-bytes", percentile: 50)
    let (ratio, status) = judged(peak, against: steady, target: batchMemoryTarget)
    if status != "met" { missed += 1 }
    lines.append("| sorted1m-batch memory (peak over the steps vs. the list settled) | — | — | settled: \(formatBytes(steady)) | \(ratio) | ≤ \(formatRatio(batchMemoryTarget)) | \(status) | \(formatBytes(peak)) | — |")
}

if arguments.count >= 3, let list = Int(arguments[1]), let array = Int(arguments[2]), array > 0 {
    let value = Double(list) / Double(array)
    let status = value <= 3 ? "met" : "MISSED"
    if status != "met" { missed += 1 }
    lines.append("| memory-1m (list + renderer vs. array, separate processes) | — | — | plain array: \(formatBytes(array)) | \(formatRatio(value)) | ≤ 3.00 | \(status) | \(formatBytes(list)) | — |")
} else {
    missed += 1
    lines.append("| memory-1m | — | — | — | — | ≤ 3.00 | MISSED (not measured) | — | — |")
}

if arguments.count >= 5, let early = Int(arguments[3]), let late = Int(arguments[4]), early > 0 {
    let value = Double(late) / Double(early)
    let status = value <= windowMemoryTarget ? "met" : "MISSED"
    if status != "met" { missed += 1 }
    lines.append("| window-scroll-1m memory (after 1,000,000 rows vs. 10,000, separate process) | — | — | after 10,000 rows: \(formatBytes(early)) | \(formatRatio(value)) | ≤ \(formatRatio(windowMemoryTarget)) | \(status) | \(formatBytes(late)) | — |")
} else {
    missed += 1
    lines.append("| window-scroll-1m memory | — | — | — | — | ≤ \(formatRatio(windowMemoryTarget)) | MISSED (not measured) | — | — |")
}

// scaling: the time per changed row at 10,000,000 rows against 10,000 (O(k log n)).
let scalingTarget = 3.0
for (index, label) in [(5, "one-row update"), (6, "1 % batch, per changed row")] {
    if arguments.count > index, let value = Double(arguments[index]) {
        let status = value <= scalingTarget ? "met" : "MISSED"
        if status != "met" { missed += 1 }
        lines.append("| scaling (\(label), 10,000,000 rows vs. 10,000, separate process) | — | — | at 10,000 rows | \(formatRatio(value)) | ≤ \(formatRatio(scalingTarget)) | \(status) | — | — |")
    } else {
        missed += 1
        lines.append("| scaling (\(label)) | — | — | — | — | ≤ \(formatRatio(scalingTarget)) | MISSED (not measured) | — | — |")
    }
}

// The fan-out scenarios' targets are absolute: CPU per list per change, the process's
// threads (2 × cores + 8), and one list's change-and-flush time.
let cores = ProcessInfo.processInfo.activeProcessorCount
let fanOutTargets: [(scenario: String, metric: String, label: String, target: Int, format: (Int?) -> String)] = [
    ("fanout-1000-lists-paced", "cpu-ns-per-window-event", "CPU per list per change", 5_000, formatTime),
    ("fanout-1000-lists-paced", "peak-threads", "threads", 2 * cores + 8, { $0.map(String.init) ?? "—" }),
    ("fanout-1000-lists-back-to-back", "cpu-ns-per-window-event", "CPU per list per change", 3_000, formatTime),
    ("fanout-1000-lists-back-to-back", "peak-threads", "threads", 2 * cores + 8, { $0.map(String.init) ?? "—" }),
    ("edit-flush-50-rows", "edit-flush-median-ns", "one change and flush, median", 40_000, formatTime),
]
for (scenario, metric, label, target, format) in fanOutTargets {
    // The median of the iterations, and for threads their most.
    let value = results[scenario]?.value(metric, percentile: metric == "peak-threads" ? 100 : 50)
    let status = value.map { $0 <= target ? "met" : "MISSED" } ?? "MISSED (not measured)"
    if status != "met" { missed += 1 }
    let p90 = metric == "peak-threads" ? "—" : format(results[scenario]?.value(metric, percentile: 90))
    lines.append("| \(scenario) (\(label)) | \(format(value)) | \(p90) | — | — | ≤ \(format(target)) | \(status) | \(formatBytes(results[scenario]?.value("peak-resident-bytes", percentile: 100))) | — |")
}

print(lines.joined(separator: "\n"))
print("")
print("Times are wall clock over the iterations of one run (median = p50). Ratios divide the median by the median of the floor measured in the same run.")
let window = results["window-scroll-1m"]
print("window-scroll-1m: times per page, the mean of the last 10 of 10,000 pages down against the mean of pages 11–20 (the first the window is trimmed after); the first 10, which fill the window untrimmed, took \(formatTime(window?.value("page-time-first-10", percentile: 50))) per page; scrolling down and back up took \(formatTime(window?.value("wallClock", percentile: 50))) (medians).")
print(missed == 0 ? "All targets met." : "\(missed) target(s) missed.")

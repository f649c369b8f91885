// Measures how the cost of a change grows with the list (see `Scaling`): a one-row
// update and a 1 % batch at 10⁴, 10⁵, 10⁶ and 10⁷ rows, each size in turn in this
// process, and writes the plot.
//
//     scaling [PLOT.svg]          # default: scaling.svg in the current folder
//
// Output, one line per size, then the ratios of 10⁷ rows to 10⁴:
//
//     scaling-rows <n> one-row-ns <t> batch-per-row-ns <t>
//     scaling-ratio one-row <r> batch-per-row <r>
import BenchmarkSupport
#if canImport(Glibc)
import Glibc
#endif

let plotPath = CommandLine.arguments.dropFirst().first ?? "scaling.svg"
var points: [Scaling.Point] = []
for rows in Scaling.sizes {
    // Fewer repeats where a batch is large, so that the run stays within minutes.
    let point = await Scaling.measure(rows: rows, oneRowRepeats: 201, batchRepeats: rows >= 10_000_000 ? 5 : 9)
    points.append(point)
    print("scaling-rows \(rows) one-row-ns \(Int(point.oneRow / .nanoseconds(1))) batch-per-row-ns \(Int(point.batchPerRow / .nanoseconds(1)))")
}
if let first = points.first, let last = points.last {
    let oneRow = Double(last.oneRow / .nanoseconds(1)) / Double(max(1, first.oneRow / .nanoseconds(1)))
    let batch = Double(last.batchPerRow / .nanoseconds(1)) / Double(max(1, first.batchPerRow / .nanoseconds(1)))
    print("scaling-ratio one-row \(oneRow) batch-per-row \(batch)")
}
let svg = Scaling.svg(points)
if let file = fopen(plotPath, "w") {
    fputs(svg, file)
    fclose(file)
} else {
    print("scaling: cannot write \(plotPath)")
}

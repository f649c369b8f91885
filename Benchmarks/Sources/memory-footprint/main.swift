// Prints the peak resident memory of one process that holds 1,000,000 rows, either in
// a plain array or in a ListDataSource with one renderer attached, or that scrolls a
// windowed paginator (1,000 rows, pages of 100) through a 1,000,000-row keyset source:
//
//     memory-footprint array   # builds [DataSourceItem<Int>]
//     memory-footprint list    # builds ListDataSource<DataSourceItem<Int>> + renderer
//     memory-footprint window  # scrolls from the first row to the last
//
// Output for `array` and `list`: one line, `peak-resident-bytes <n>`. For `window`, the
// peak (VmHWM) and current (VmRSS) resident memory after the first 10,000 rows and after
// all 1,000,000 rows are scrolled:
//
//     peak-resident-bytes-10k <n>
//     resident-bytes-10k <n>
//     peak-resident-bytes-1m <n>
//     resident-bytes-1m <n>
//
// Run each in its own process, so no measurement includes another's memory.

import BenchmarkSupport
import Dispatch
import ListEngine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A renderer that keeps the latest snapshot, as a table adapter would.
final class KeepingRenderer: ListRenderer {
    private let latest = Mutex<ListSnapshot<Row>?>(nil)
    private let target: Int
    private let reached = DispatchSemaphore(value: 0)

    init(waitingFor target: Int) {
        self.target = target
    }

    func render(_ batch: ChangeBatch<Row>) {
        latest.withLock { $0 = batch.new }
        if batch.new.count == target { reached.signal() }
    }

    func waitForTarget() -> ListSnapshot<Row>? {
        reached.wait()
        return latest.withLock { $0 }
    }
}

let rowCount = 1_000_000
let mode = CommandLine.arguments.dropFirst().first ?? ""
var rowsHeld = 0

switch mode {
case "array":
    let rows = Rows.make(count: rowCount, seed: 1_000_000)
    rowsHeld = rows.count
    withExtendedLifetime(rows) {}
case "list":
    let source = ListDataSource<Row>()
    let renderer = KeepingRenderer(waitingFor: rowCount)
    source.attach(renderer)
    source.add(Rows.make(count: rowCount, seed: 1_000_000))
    let snapshot = renderer.waitForTarget()
    rowsHeld = snapshot?.count ?? 0
    withExtendedLifetime(source) {}
case "window":
    var scroll = WindowScroll(source: KeysetRowSource(count: rowCount))
    await scroll.scrollDown(pages: 10_000 / scroll.pageSize)
    let early = (ProcessMemory.peakResidentBytes, ProcessMemory.residentBytes)
    await scroll.scrollDown()
    let late = (ProcessMemory.peakResidentBytes, ProcessMemory.residentBytes)
    guard scroll.problems.isEmpty, scroll.window == rowCount - 1_000 ... rowCount - 1,
          let earlyPeak = early.0, let earlyResident = early.1, let latePeak = late.0, let lateResident = late.1 else {
        print("memory-footprint: the window scroll ended at rows \(scroll.window.map(String.init(describing:)) ?? "none"): \(scroll.problems), or VmHWM unreadable")
        exit(1)
    }
    print("peak-resident-bytes-10k \(earlyPeak)")
    print("resident-bytes-10k \(earlyResident)")
    print("peak-resident-bytes-1m \(latePeak)")
    print("resident-bytes-1m \(lateResident)")
    exit(0)
default:
    print("usage: memory-footprint array|list|window")
    exit(2)
}

guard rowsHeld == rowCount, let peak = ProcessMemory.peakResidentBytes else {
    print("memory-footprint: held \(rowsHeld) rows, or VmHWM unreadable")
    exit(1)
}
print("peak-resident-bytes \(peak)")

// Prints the peak resident memory of one process that holds 1,000,000 rows, either in
// a plain array or in a ListDataSource with one renderer attached:
//
//     memory-footprint array   # builds [DataSourceItem<Int>]
//     memory-footprint list    # builds ListDataSource<DataSourceItem<Int>> + renderer
//
// Output: one line, `peak-resident-bytes <n>`. Run each in its own process, so neither
// measurement includes the other's memory.

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
default:
    print("usage: memory-footprint array|list")
    exit(2)
}

guard rowsHeld == rowCount, let peak = ProcessMemory.peakResidentBytes else {
    print("memory-footprint: held \(rowsHeld) rows, or VmHWM unreadable")
    exit(1)
}
print("peak-resident-bytes \(peak)")

import Benchmark
import BenchmarkSupport
import Dispatch
import ListEngine
import Synchronization

/// Three references, not targets: parts of `sorted1m-batch` and of `single-upsert-1m`
/// that the list's structure fixes before any of its own work. The table shows their
/// ratios to `floor-merge-walk-1m`.
func registerReferences() {
    registerLeafCopyReference()
    registerLeafSearchReference()
    registerHandOffReference()
}

/// `sorted1m-batch`'s reference: the copying that the list's copy-on-write leaves
/// require for that change, with no editing at all.
///
/// The list keeps its rows, and an index from id to row, in leaves of about 16 KiB that
/// the old and new snapshots of a batch share. Every leaf that the change touches must
/// be copied, because the old snapshot still shows it. The 16,000 rows that
/// `sorted1m-batch` removes, re-keys and inserts fall into most of the leaves.
///
/// This measurement lays out the same 1,000,000 rows as the list's bulk load does (full
/// row leaves of 512 rows; full id leaves of 409 entries, ordered by id hash), finds the
/// leaves that the change touches, and times only copying them into new leaves: the
/// rows on one thread and the id entries on the other, as the list's two passes run on
/// two threads.
func registerLeafCopyReference() {
    Benchmark(
        "copy-touched-leaves-1m",
        configuration: Scenario.configuration(iterations: 30, seconds: 10),
        closure: { (benchmark: Benchmark, fixture: TouchedLeavesFixture) in
            let copies = Mutex<(rows: [ModelLeaf<Row>], ids: [ModelLeaf<ModelIDEntry>])>(([], []))
            benchmark.startMeasurement()
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    let rows = ModelLeaf.copies(of: fixture.rowLeaves, at: fixture.touchedRowLeaves)
                    copies.withLock { $0.rows = rows }
                } else {
                    let ids = ModelLeaf.copies(of: fixture.idLeaves, at: fixture.touchedIDLeaves)
                    copies.withLock { $0.ids = ids }
                }
            }
            benchmark.stopMeasurement()
            Scenario.recordPeakMemory(in: benchmark)
            copies.withLock { copies in
                check(copies.rows.count == fixture.touchedRowLeaves.count && copies.ids.count == fixture.touchedIDLeaves.count,
                      "copied \(copies.rows.count) row and \(copies.ids.count) id leaves")
                for (copy, leaf) in zip(copies.rows, fixture.touchedRowLeaves).prefix(100) {
                    check(copy.elements == fixture.rowLeaves[leaf].elements, "row leaf \(leaf) copied wrong")
                }
                for (copy, leaf) in zip(copies.ids, fixture.touchedIDLeaves).prefix(100) {
                    check(copy.elements.map(\.hash) == fixture.idLeaves[leaf].elements.map(\.hash), "id leaf \(leaf) copied wrong")
                }
            }
        },
        setup: { TouchedLeavesFixture() }
    )
}

/// `sorted1m-batch`'s other reference: finding where the change's rows are and go, in
/// the same leaves, writing nothing.
///
/// Any pass that edits the list's leaves in place of copying them (leaves that carry
/// their changes, say) must still find, in leaves that are not in the cache, the entry
/// of every named id and the place of every removed, re-keyed and added row. This lays
/// out the rows as ``registerLeafCopyReference()`` does, routes the change's keys in
/// ascending order to their leaves by the leaves' first elements (which the list keeps
/// in its branches), and binary-searches each in its leaf from where the one before it
/// ended: the id hashes on one thread and the rows on the other.
func registerLeafSearchReference() {
    Benchmark(
        "find-changed-rows-1m",
        configuration: Scenario.configuration(iterations: 30, seconds: 10),
        closure: { (benchmark: Benchmark, fixture: ChangedRowsFixture) in
            let found = Mutex<(ids: Int, rows: Int)>((0, 0))
            benchmark.startMeasurement()
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                if part == 0 {
                    let ids = ModelLeaf.find(fixture.hashes, in: fixture.leaves.idLeaves, firsts: fixture.idFirsts) { first, hash in
                        first.hash <= hash
                    } isAtOrAfter: { entry, hash in
                        entry.hash >= hash
                    } matches: { entry, hash in
                        entry.hash == hash
                    }
                    found.withLock { $0.ids = ids }
                } else {
                    let rows = ModelLeaf.find(fixture.rows, in: fixture.leaves.rowLeaves, firsts: fixture.rowFirsts) { first, key in
                        !(key.row < first)
                    } isAtOrAfter: { row, key in
                        key.isPlaced ? key.row < row : !(row < key.row)
                    } matches: { row, key in
                        !key.isPlaced && row == key.row
                    }
                    found.withLock { $0.rows = rows }
                }
            }
            benchmark.stopMeasurement()
            Scenario.recordPeakMemory(in: benchmark)
            found.withLock { found in
                // 5,000 re-keyed and 1,000 removed rows are stored; the 5,000 new ids are not.
                check(found.ids == 6_000 && found.rows == 6_000, "found \(found.ids) ids and \(found.rows) stored rows of 6,000")
            }
        },
        setup: { ChangedRowsFixture() }
    )
}

/// `single-upsert-1m`'s reference: the thread hand-offs that every mutation makes, with
/// no work in them.
///
/// The list applies mutations on a background queue and renders batches on each
/// renderer's own queue. So a one-row update crosses from the caller to the diff queue,
/// and from there to the renderer's queue. This measures those two crossings alone,
/// between queues made as the list makes them, and learns of the second one as the
/// scenario does: by watching from the benchmark thread (up to 1 ms, then sleeping).
func registerHandOffReference() {
    Benchmark(
        "dispatch-hand-offs",
        configuration: Scenario.configuration(iterations: 5_000, seconds: 10, warmup: 10),
        closure: { (benchmark: Benchmark, queues: (diff: DispatchQueue, renderer: DispatchQueue)) in
            let arrival = HandOffArrival()
            benchmark.startMeasurement()
            queues.diff.async {
                queues.renderer.async { arrival.arrive() }
            }
            arrival.wait(spinning: .milliseconds(1))
            benchmark.stopMeasurement()
            Scenario.recordPeakMemory(in: benchmark)
        },
        setup: {
            (DispatchQueue(label: "dispatch-hand-offs.diff", qos: .userInitiated),
             DispatchQueue(label: "dispatch-hand-offs.renderer", qos: .userInitiated))
        }
    )
}

/// The end of one hand-off: a flag the benchmark thread watches for a while, then a
/// semaphore it sleeps on, as ``BatchObserver/wait(until:spinning:)`` does.
final class HandOffArrival: Sendable {
    private let arrived = Atomic<Bool>(false)
    private let semaphore = DispatchSemaphore(value: 0)

    func arrive() {
        arrived.store(true, ordering: .releasing)
        semaphore.signal()
    }

    /// Returns once `arrive()` has been called, watching for it for `spinning` first.
    func wait(spinning: Duration) {
        if !watch(for: spinning, until: { arrived.load(ordering: .acquiring) }) { semaphore.wait() }
    }
}

/// A leaf of the model: a node object holding its elements in an array, as the list's
/// leaves are.
final class ModelLeaf<Element: Sendable>: Sendable {
    let elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// New leaves holding copies of the elements of `leaves[touched]`, each with room for
    /// ``capacity`` elements, as the list allocates them.
    static func copies(of leaves: [ModelLeaf], at touched: [Int]) -> [ModelLeaf] {
        var copies: [ModelLeaf] = []
        copies.reserveCapacity(touched.count)
        for leaf in touched {
            var elements: [Element] = []
            elements.reserveCapacity(capacity)
            elements.append(contentsOf: leaves[leaf].elements)
            copies.append(ModelLeaf(elements: elements))
        }
        return copies
    }

    /// The elements a leaf of the list holds at most: as many as fit in 16 KiB, at most
    /// 512 and at least 16 (512 rows of `Row`, 409 id entries).
    static var capacity: Int {
        min(512, max(16, 16_384 / max(1, MemoryLayout<Element>.stride)))
    }

    /// `elements` cut into leaves as the list's bulk load cuts them: as few as hold them
    /// at ``capacity``, of sizes that differ by at most one.
    static func leaves(of elements: [Element]) -> [ModelLeaf] {
        let count = (elements.count + capacity - 1) / capacity
        let base = elements.count / count, extra = elements.count % count
        var leaves: [ModelLeaf] = []
        var start = 0
        for index in 0 ..< count {
            let end = start + (index < extra ? base + 1 : base)
            var slice: [Element] = []
            slice.reserveCapacity(capacity)
            slice.append(contentsOf: elements[start ..< end])
            leaves.append(ModelLeaf(elements: slice))
            start = end
        }
        return leaves
    }
}

extension ModelLeaf {
    /// Finds each of `keys` (ascending) in the leaf it falls into, the last leaf whose
    /// first element does not come after it, by a binary search that starts where the
    /// previous key's ended in the same leaf. Returns how many keys `matches` the
    /// element found.
    ///
    /// - Parameters:
    ///   - firsts: the first element of each leaf.
    ///   - startsAtOrBefore: whether a leaf with this first element starts at or before
    ///     the key: true for a prefix of the leaves.
    ///   - isAtOrAfter: whether an element is at or after the key's place: false for a
    ///     prefix of a leaf's elements, true for the rest.
    static func find<Key>(
        _ keys: [Key], in leaves: [ModelLeaf], firsts: [Element], startsAtOrBefore: (Element, Key) -> Bool,
        isAtOrAfter: (Element, Key) -> Bool, matches: (Element, Key) -> Bool
    ) -> Int {
        var leaf = 0, cursor = 0, matched = 0
        for key in keys {
            var next = leaf
            while next + 1 < leaves.count && startsAtOrBefore(firsts[next + 1], key) { next += 1 }
            if next != leaf { (leaf, cursor) = (next, 0) }
            let elements = leaves[leaf].elements
            var low = cursor, high = elements.count
            while low < high {
                let middle = (low + high) / 2
                if isAtOrAfter(elements[middle], key) { high = middle } else { low = middle + 1 }
            }
            cursor = low
            if low < elements.count && matches(elements[low], key) { matched += 1 }
        }
        return matched
    }
}

/// An entry of the model's id index: the id's hash and its row, as the list stores them.
struct ModelIDEntry: Sendable {
    var hash: Int
    var row: Row
}

/// The `sorted1m-batch` rows laid out in leaves, and the leaves its change touches.
final class TouchedLeavesFixture: Sendable {
    let rowLeaves: [ModelLeaf<Row>]
    let idLeaves: [ModelLeaf<ModelIDEntry>]
    /// Ascending indices of the row leaves holding a removed or re-keyed row, or the
    /// place of an added or re-keyed one.
    let touchedRowLeaves: [Int]
    /// Ascending indices of the id leaves holding, or receiving, a named id.
    let touchedIDLeaves: [Int]

    init(change: SortedBatchChange = SortedBatchChange()) {
        let rows = change.base.sorted(by: <)
        let entries = change.base.map { ModelIDEntry(hash: $0.id.hashValue, row: $0) }.sorted { $0.hash < $1.hash }
        rowLeaves = ModelLeaf.leaves(of: rows)
        idLeaves = ModelLeaf.leaves(of: entries)

        let byID = Dictionary(uniqueKeysWithValues: change.base.map { ($0.id, $0) })
        // Where a stored row is, and where an added one goes.
        func position(of row: Row) -> Int { Self.partition(rows) { !($0 < row) } }
        func place(of row: Row) -> Int { Self.partition(rows) { row < $0 } }
        var rowPositions: [Int] = []
        for row in change.added {
            if let old = byID[row.id] { rowPositions.append(position(of: old)) }
            rowPositions.append(place(of: row))
        }
        for id in change.removedIDs {
            if let old = byID[id] { rowPositions.append(position(of: old)) }
        }
        let hashPositions = (change.added.map(\.id) + change.removedIDs).map { id in
            let hash = id.hashValue
            return Self.partition(entries) { $0.hash >= hash }
        }
        touchedRowLeaves = Self.leafIndices(of: rowPositions, in: rowLeaves)
        touchedIDLeaves = Self.leafIndices(of: hashPositions, in: idLeaves)
    }

    /// The first index of `elements` whose element satisfies `isAtOrAfter`, which is
    /// false for a prefix of them and true for the rest.
    static func partition<Element>(_ elements: [Element], _ isAtOrAfter: (Element) -> Bool) -> Int {
        var low = 0, high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(elements[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The distinct leaves, ascending, that hold `positions` (a position at a leaf's end
    /// belongs to that leaf, where an insertion there goes).
    static func leafIndices<Element>(of positions: [Int], in leaves: [ModelLeaf<Element>]) -> [Int] {
        var ends: [Int] = []
        var total = 0
        for leaf in leaves {
            total += leaf.elements.count
            ends.append(total)
        }
        let touched = Set(positions.map { position in min(leaves.count - 1, partition(ends) { $0 >= position }) })
        return touched.sorted()
    }
}

/// The `sorted1m-batch` rows laid out in leaves, and the keys its change looks for.
final class ChangedRowsFixture: Sendable {
    /// A row to find: a stored one (removed or re-keyed) or one to place (added or re-keyed).
    struct RowKey: Sendable {
        var row: Row
        var isPlaced: Bool
    }

    let leaves: TouchedLeavesFixture
    let rowFirsts: [Row]
    let idFirsts: [ModelIDEntry]
    /// The hashes of every named id, ascending.
    let hashes: [Int]
    /// Every stored row the change removes or re-keys and every row it places, in row
    /// order (at equal rows, the stored one first).
    let rows: [RowKey]

    init() {
        let change = SortedBatchChange()
        leaves = TouchedLeavesFixture(change: change)
        rowFirsts = leaves.rowLeaves.map { $0.elements[0] }
        idFirsts = leaves.idLeaves.map { $0.elements[0] }
        hashes = (change.added.map(\.id) + change.removedIDs).map(\.hashValue).sorted()
        let byID = Dictionary(uniqueKeysWithValues: change.base.map { ($0.id, $0) })
        var keys = change.added.map { RowKey(row: $0, isPlaced: true) }
        for id in change.added.map(\.id) + change.removedIDs {
            if let stored = byID[id] { keys.append(RowKey(row: stored, isPlaced: false)) }
        }
        rows = keys.sorted { $0.row < $1.row || (!($1.row < $0.row) && !$0.isPlaced && $1.isPlaced) }
    }
}

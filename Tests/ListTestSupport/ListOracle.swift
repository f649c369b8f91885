import ListEngine

/// The slow, obviously correct model of a list: an array edited one element at a time,
/// exactly as the contract words each mutation.
///
/// Between `beginBatch()` and `expectedBatch()` it records which ids were named, and
/// computes the expected deletions, insertions and reloads by definition, and the
/// minimum number of moves by a quadratic max-weight increasing subsequence (untouched
/// rows weigh more than all touched rows together, so they are never moved).
public struct ListOracle<Item: Hashable & DataSourceComparable> {
    public private(set) var rows: [Item] = []
    public private(set) var areInIncreasingOrder: (Item, Item) -> Bool
    private var batchStart: [Item] = []
    private var touchedIDs: Set<Item.ID> = []
    private var touchesEverything = false

    public init(sortedBy areInIncreasingOrder: @escaping (Item, Item) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    // MARK: Mutations, one element at a time

    public mutating func add(_ items: [Item]) {
        for item in items {
            touchedIDs.insert(item.id)
            addOne(item)
        }
    }

    private mutating func addOne(_ item: Item) {
        let less = areInIncreasingOrder
        if let position = rows.firstIndex(where: { $0.id == item.id }) {
            if rows[position].isContentEqual(to: item) { return }
            let fitsAfterPrevious = position == 0 || !less(item, rows[position - 1])
            let fitsBeforeNext = position == rows.count - 1 || !less(rows[position + 1], item)
            if fitsAfterPrevious && fitsBeforeNext {
                rows[position] = item
                return
            }
            rows.remove(at: position)
        }
        let upperBound = rows.firstIndex(where: { less(item, $0) }) ?? rows.count
        rows.insert(item, at: upperBound)
    }

    public mutating func remove(ids: [Item.ID]) {
        for id in ids {
            touchedIDs.insert(id)
            rows.removeAll { $0.id == id }
        }
    }

    /// `update(ids:_:)`: each listed id present by then is changed from its latest
    /// item (an id listed again from its previous result), and the results are added as
    /// one call.
    public mutating func update(ids: [Item.ID], _ change: (inout Item) -> Void) {
        var items: [Item] = []
        var placeOfID: [Item.ID: Int] = [:]
        for id in ids {
            let place = placeOfID[id]
            guard var item = place.map({ items[$0] }) ?? rows.first(where: { $0.id == id }) else { continue }
            change(&item)
            if let place { items[place] = item } else {
                placeOfID[id] = items.count
                items.append(item)
            }
        }
        add(items)
    }

    /// `remove(where:)`: removes the rows the predicate selects now.
    public mutating func remove(where shouldBeRemoved: (Item) -> Bool) {
        remove(ids: rows.filter(shouldBeRemoved).map(\.id))
    }

    public mutating func removeAll() {
        touchesEverything = true
        rows.removeAll()
    }

    public mutating func replaceAll(with items: [Item]) {
        touchesEverything = true
        let keep = Set(items.map(\.id))
        rows.removeAll { !keep.contains($0.id) }
        add(items)
    }

    public mutating func sort(by areInIncreasingOrder: @escaping (Item, Item) -> Bool) {
        touchesEverything = true
        self.areInIncreasingOrder = areInIncreasingOrder
        // Insertion sort: stable by construction.
        var sorted: [Item] = []
        for item in rows {
            let position = sorted.firstIndex(where: { areInIncreasingOrder(item, $0) }) ?? sorted.count
            sorted.insert(item, at: position)
        }
        rows = sorted
    }

    // MARK: Expected batch

    public struct ExpectedBatch: Equatable, CustomStringConvertible {
        public var deletions: [Int]
        public var insertions: [Int]
        public var reloads: [Int]
        public var minimumMoves: Int
        /// Ids that were allowed to move (nil: all).
        public var movable: Set<Item.ID>?

        public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && reloads.isEmpty && minimumMoves == 0 }
        public var description: String { "deletions \(deletions) insertions \(insertions) reloads \(reloads) minimumMoves \(minimumMoves)" }
    }

    /// The rows at `beginBatch()`.
    public var rowsAtBatchStart: [Item] { batchStart }

    /// The ids named since `beginBatch()`, or `nil` when a call touched every row.
    public var touchedSinceBatchStart: Set<Item.ID>? { touchesEverything ? nil : touchedIDs }

    /// Starts recording a batch from the current rows.
    public mutating func beginBatch() {
        batchStart = rows
        touchedIDs = []
        touchesEverything = false
    }

    /// The batch from the rows at `beginBatch()` to the current rows.
    public func expectedBatch() -> ExpectedBatch {
        let old = batchStart, new = rows
        let deletions = old.indices.filter { offset in !new.contains { $0.id == old[offset].id } }
        let insertions = new.indices.filter { offset in !old.contains { $0.id == new[offset].id } }
        let reloads = new.indices.filter { offset in
            old.first { $0.id == new[offset].id }.map { !$0.isContentEqual(to: new[offset]) } ?? false
        }
        // Survivors in old order, with their new offsets and whether they may move.
        let survivors: [(newOffset: Int, movable: Bool)] = old.compactMap { item in
            guard let target = new.firstIndex(where: { $0.id == item.id }) else { return nil }
            return (target, touchesEverything || touchedIDs.contains(item.id))
        }
        let heavy = survivors.count + 1
        var best = [Int](repeating: 0, count: survivors.count)
        for i in survivors.indices {
            let weight = survivors[i].movable ? 1 : heavy
            best[i] = weight
            for j in 0..<i where survivors[j].newOffset < survivors[i].newOffset {
                best[i] = max(best[i], best[j] + weight)
            }
        }
        let bestWeight = best.max() ?? 0
        let untouched = survivors.filter { !$0.movable }.count
        let keptTouched = bestWeight - untouched * heavy
        let touchedSurvivors = survivors.count - untouched
        precondition(keptTouched >= 0, "untouched rows changed relative order: the oracle itself is wrong")
        return ExpectedBatch(
            deletions: deletions,
            insertions: insertions,
            reloads: reloads,
            minimumMoves: touchedSurvivors - keptTouched,
            movable: touchesEverything ? nil : touchedIDs
        )
    }
}

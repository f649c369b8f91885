import ListEngine

/// The slow model of a sectioned list: a ``ListOracle`` over the section-major order,
/// with sections found by grouping its rows, and the expected batch computed by
/// definition on nested arrays.
public struct SectionedOracle<Section: Hashable & Comparable, Item: Hashable & DataSourceComparable> {
    public private(set) var flat: ListOracle<Item>
    public let sectionOf: (Item) -> Section

    /// - Parameters:
    ///   - sectionOf: each item's key.
    ///   - areInIncreasingOrder: the order within a section.
    public init(sectionOf: @escaping (Item) -> Section, sortedBy areInIncreasingOrder: @escaping (Item, Item) -> Bool) {
        self.sectionOf = sectionOf
        self.flat = ListOracle(sortedBy: Self.sectionMajor(sectionOf, areInIncreasingOrder))
    }

    static func sectionMajor(_ sectionOf: @escaping (Item) -> Section, _ order: @escaping (Item, Item) -> Bool) -> (Item, Item) -> Bool {
        { lhs, rhs in
            let left = sectionOf(lhs), right = sectionOf(rhs)
            return left < right || (left == right && order(lhs, rhs))
        }
    }

    public var rows: [Item] { flat.rows }

    /// The rows as (key, rows) pairs, one per section.
    public var nested: [(key: Section, rows: [Item])] { Self.group(flat.rows, by: sectionOf) }

    public static func group(_ rows: [Item], by sectionOf: (Item) -> Section) -> [(key: Section, rows: [Item])] {
        var sections: [(key: Section, rows: [Item])] = []
        for row in rows {
            let key = sectionOf(row)
            if sections.last?.key == key { sections[sections.count - 1].rows.append(row) } else { sections.append((key, [row])) }
        }
        return sections
    }

    // MARK: Mutations

    public mutating func beginBatch() { flat.beginBatch() }
    public mutating func add(_ items: [Item]) { flat.add(items) }
    public mutating func remove(ids: [Item.ID]) { flat.remove(ids: ids) }
    public mutating func removeAll() { flat.removeAll() }
    public mutating func replaceAll(with items: [Item]) { flat.replaceAll(with: items) }
    public mutating func update(ids: [Item.ID], _ change: (inout Item) -> Void) { flat.update(ids: ids, change) }
    public mutating func remove(where shouldBeRemoved: (Item) -> Bool) { flat.remove(where: shouldBeRemoved) }
    public mutating func sort(by order: @escaping (Item, Item) -> Bool) { flat.sort(by: Self.sectionMajor(sectionOf, order)) }

    // MARK: Expected batch

    public struct ExpectedBatch: CustomStringConvertible {
        public var sectionDeletions: [Int]
        public var sectionInsertions: [Int]
        public var itemDeletions: [ListIndexPath]
        public var itemInsertions: [ListIndexPath]
        public var itemReloads: [ListIndexPath]
        /// The fewest moves in index-path terms.
        public var minimumMoves: Int
        /// Ids allowed to move (`nil`: all).
        public var movable: Set<Item.ID>?
        /// Ids that changed section, which must move.
        public var sectionChangers: Set<Item.ID>

        public var isEmpty: Bool {
            sectionDeletions.isEmpty && sectionInsertions.isEmpty && itemDeletions.isEmpty && itemInsertions.isEmpty && itemReloads.isEmpty
                && minimumMoves == 0
        }
        public var description: String {
            "sections -\(sectionDeletions) +\(sectionInsertions) items -\(itemDeletions) +\(itemInsertions) reloads \(itemReloads) minimumMoves \(minimumMoves)"
        }
    }

    /// The batch from the rows at `beginBatch()` to the current rows.
    ///
    /// The fewest moves come from a quadratic heaviest increasing subsequence over the
    /// rows that keep their section (an untouched row weighs more than all touched ones
    /// together); every row that changed section moves.
    public func expectedBatch() -> ExpectedBatch {
        let old = Self.group(flat.rowsAtBatchStart, by: sectionOf), new = nested
        let oldKeys = old.map(\.key), newKeys = new.map(\.key)
        func paths(_ sections: [(key: Section, rows: [Item])]) -> [Item.ID: (ListIndexPath, Item)] {
            var result: [Item.ID: (ListIndexPath, Item)] = [:]
            for (s, section) in sections.enumerated() {
                for (i, row) in section.rows.enumerated() { result[row.id] = (ListIndexPath(section: s, item: i), row) }
            }
            return result
        }
        let oldPaths = paths(old), newPaths = paths(new)
        let touched = flat.touchedSinceBatchStart
        var changers: Set<Item.ID> = []
        // Survivors that keep their section, in old order, with their new path.
        var stayers: [(to: ListIndexPath, movable: Bool)] = []
        for section in old {
            for row in section.rows {
                guard let (to, newRow) = newPaths[row.id] else { continue }
                if sectionOf(row) != sectionOf(newRow) {
                    changers.insert(row.id)
                } else {
                    stayers.append((to, touched?.contains(row.id) ?? true))
                }
            }
        }
        let heavy = stayers.count + 1
        var best = [Int](repeating: 0, count: stayers.count)
        for i in stayers.indices {
            let weight = stayers[i].movable ? 1 : heavy
            best[i] = weight
            for j in 0..<i where stayers[j].to < stayers[i].to { best[i] = max(best[i], best[j] + weight) }
        }
        let untouched = stayers.filter { !$0.movable }.count
        let keptTouched = (best.max() ?? 0) - untouched * heavy
        precondition(keptTouched >= 0, "untouched rows changed relative order: the oracle itself is wrong")
        return ExpectedBatch(
            sectionDeletions: oldKeys.indices.filter { !newKeys.contains(oldKeys[$0]) },
            sectionInsertions: newKeys.indices.filter { !oldKeys.contains(newKeys[$0]) },
            itemDeletions: oldPaths.filter { newPaths[$0.key] == nil }.map(\.value.0).sorted(),
            itemInsertions: newPaths.filter { oldPaths[$0.key] == nil }.map(\.value.0).sorted(),
            itemReloads: newPaths.compactMap { id, entry in
                guard let (_, oldRow) = oldPaths[id], !oldRow.isContentEqual(to: entry.1) else { return nil }
                return entry.0
            }.sorted(),
            minimumMoves: changers.count + (stayers.count - untouched - keptTouched),
            movable: touched,
            sectionChangers: changers
        )
    }
}

/// A sectioned renderer that records every batch it receives, optionally slowly.
public final class SectionedBatchRecorder<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: SectionedListRenderer {
    private let recorded = LockedState<[SectionedChangeBatch<Section, Item>]>([])
    private let delayMicroseconds: UInt32

    public init(delayMicroseconds: UInt32 = 0) {
        self.delayMicroseconds = delayMicroseconds
    }

    public func render(_ batch: SectionedChangeBatch<Section, Item>) {
        if delayMicroseconds > 0 { _sectionedSleep(microseconds: delayMicroseconds) }
        recorded.withLock { $0.append(batch) }
    }

    public var batches: [SectionedChangeBatch<Section, Item>] { recorded.withLock { $0 } }

    public func take() -> [SectionedChangeBatch<Section, Item>] { recorded.withLock { batches in defer { batches = [] }; return batches } }
}

/// Nested arrays of a sectioned list: one (key, rows) pair per section.
public typealias NestedRows<Section, Item> = [(key: Section, rows: [Item])]

/// `snapshot` as nested arrays, read through its public API.
public func nestedRows<Section, Item>(of snapshot: SectionedSnapshot<Section, Item>) -> NestedRows<Section, Item> {
    snapshot.sections.map { section in (section.key, section.rows.map { snapshot.rows[$0] }) }
}

/// Applies `steps` to nested arrays, one by one, as a renderer would.
public func applySteps<Section, Item>(_ steps: [SectionedListStep<Section, Item>], to nested: inout NestedRows<Section, Item>) {
    for step in steps {
        switch step {
        case .insertSection(let key, let offset): nested.insert((key, []), at: offset)
        case .removeSection(let offset):
            precondition(nested[offset].rows.isEmpty, "step removes a section that is not empty")
            nested.remove(at: offset)
        case .insert(let item, let path): nested[path.section].rows.insert(item, at: path.item)
        case .remove(let path): nested[path.section].rows.remove(at: path.item)
        case .move(let from, let to):
            let item = nested[from.section].rows.remove(at: from.item)
            nested[to.section].rows.insert(item, at: to.item)
        case .reload(let item, let path): nested[path.section].rows[path.item] = item
        }
    }
}

/// Applies the sets of `batch` to nested arrays in the documented order.
public func applySets<Section, Item>(of batch: SectionedChangeBatch<Section, Item>, to nested: inout NestedRows<Section, Item>) {
    var moved: [ListIndexPath: Item] = [:]
    for move in batch.itemMoves { moved[move.from] = nested[move.from.section].rows[move.from.item] }
    for path in (batch.itemDeletions + batch.itemMoves.map(\.from)).sorted(by: >) { nested[path.section].rows.remove(at: path.item) }
    for offset in batch.sectionDeletions.reversed() {
        precondition(nested[offset].rows.isEmpty, "deleted section not empty")
        nested.remove(at: offset)
    }
    for offset in batch.sectionInsertions { nested.insert((batch.new.sections[offset].key, []), at: offset) }
    var arrivals = batch.itemInsertions.map { ($0, batch.new[$0]) }
    for move in batch.itemMoves { arrivals.append((move.to, moved[move.from]!)) }
    for (path, item) in arrivals.sorted(by: { $0.0 < $1.0 }) { nested[path.section].rows.insert(item, at: path.item) }
    for path in batch.itemReloads { nested[path.section].rows[path.item] = batch.new[path] }
}

/// Whether two nested arrays hold the same keys and the same rows with the same content.
public func isSameNested<Section: Equatable, Item: DataSourceComparable>(_ first: NestedRows<Section, Item>, _ second: NestedRows<Section, Item>) -> Bool {
    first.count == second.count && zip(first, second).allSatisfy { a, b in
        a.key == b.key && a.rows.count == b.rows.count && zip(a.rows, b.rows).allSatisfy { $0.id == $1.id && $0.isContentEqual(to: $1) }
    }
}

#if canImport(Glibc)
import Glibc
private func _sectionedSleep(microseconds: UInt32) { usleep(microseconds) }
#elseif canImport(Darwin)
import Darwin
private func _sectionedSleep(microseconds: UInt32) { usleep(microseconds) }
#endif

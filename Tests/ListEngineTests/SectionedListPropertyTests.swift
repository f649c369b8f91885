import Dispatch
import ListEngine
import ListTestSupport
import Testing

/// Random mutation sequences on sectioned lists, checked batch by batch against the slow
/// sectioned oracle, with sections that follow the sort key and sections unrelated to it.
@Suite(.cpuBound) struct SectionedListPropertyTests {
    static let seedCount: UInt64 = 2_000

    /// How a seed groups its rows.
    enum Grouping: CaseIterable, CustomStringConvertible {
        /// A tier of the sort key: sections follow the order (`key / 2`).
        case tierOfKey
        /// Unrelated to the sort key: `id % 5`.
        case idModulo

        var sectionOf: @Sendable (TestRow) -> Int {
            switch self {
            case .tierOfKey: { $0.key / 2 }
            case .idModulo: { $0.id % 5 }
            }
        }
        var description: String { self == .tierOfKey ? "key / 2" : "id % 5" }
    }

    static func makeList(_ grouping: Grouping, seed: UInt64) -> (SectionedListDataSource<Int, TestRow>, SectionedOracle<Int, TestRow>) {
        let oracle = SectionedOracle<Int, TestRow>(sectionOf: grouping.sectionOf, sortedBy: { $0.key < $1.key })
        // Half the seeds order rows by the items' `<`, half by the same order as a comparator.
        let source = seed % 2 == 0
            ? SectionedListDataSource<Int, TestRow>(sectionedBy: grouping.sectionOf)
            : SectionedListDataSource<Int, TestRow>(sectionedBy: grouping.sectionOf, sortedBy: { $0.key < $1.key })
        return (source, oracle)
    }

    /// One random call, applied to both the list and the oracle.
    static func randomMutation(_ rng: inout SplitMix64, oracle: inout SectionedOracle<Int, TestRow>, source: SectionedListDataSource<Int, TestRow>, idPool: Int) -> String {
        func randomRow(_ rng: inout SplitMix64) -> TestRow {
            let id = rng.int(in: 0..<idPool)
            if let existing = oracle.rows.first(where: { $0.id == id }), rng.chance(0.6) {
                switch rng.int(in: 0..<3) {
                case 0: return existing
                case 1: return TestRow(id: id, key: existing.key, payload: existing.payload + 1)
                default: return TestRow(id: id, key: rng.int(in: 0..<10), payload: existing.payload)
                }
            }
            return TestRow(id: id, key: rng.int(in: 0..<10), payload: rng.int(in: 0..<3))
        }
        switch rng.int(in: 0..<100) {
        case 0..<55:
            let items = (0..<rng.int(in: 1..<6)).map { _ in randomRow(&rng) }
            oracle.add(items)
            if items.count == 1, rng.chance(0.5) { source.add(items[0]) } else { source.add(items) }
            return "add \(items)"
        case 55..<78:
            let ids = (0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<(idPool + 3)) }
            oracle.remove(ids: ids)
            source.remove(ids: ids)
            return "remove \(ids)"
        case 78..<80:
            oracle.removeAll()
            source.removeAll()
            return "removeAll"
        case 80..<88:
            let items = oracle.rows.filter { _ in rng.chance(0.7) }.map {
                rng.chance(0.3) ? TestRow(id: $0.id, key: rng.int(in: 0..<10), payload: $0.payload) : $0
            } + (0..<rng.int(in: 0..<4)).map { _ in randomRow(&rng) }
            let shuffled = items.shuffled(using: &rng)
            oracle.replaceAll(with: shuffled)
            source.replaceAll(with: shuffled)
            return "replaceAll \(shuffled)"
        case 88..<94:
            let ids = (0..<rng.int(in: 1..<4)).map { _ in rng.int(in: 0..<(idPool + 2)) }
            let newKey = rng.int(in: 0..<10)
            let change: @Sendable (inout TestRow) -> Void = { $0.key = newKey }
            oracle.update(ids: ids, change)
            source.update(ids: ids, change)
            return "update \(ids) key \(newKey)"
        case 94..<97:
            let key = rng.int(in: 0..<10)
            let predicate: @Sendable (TestRow) -> Bool = { $0.key == key }
            oracle.remove(where: predicate)
            source.remove(where: predicate)
            return "remove(where: key == \(key))"
        default:
            let order = TestOrder.allCases[rng.int(in: 0..<TestOrder.allCases.count)]
            oracle.sort(by: order.comparator)
            source.sort(by: order.comparator)
            return "sort(\(order))"
        }
    }

    /// Records an issue unless `batches` is the one batch the oracle expects.
    @discardableResult
    static func expect(_ batches: [SectionedChangeBatch<Int, TestRow>], toMatch expected: SectionedOracle<Int, TestRow>.ExpectedBatch, context: String) -> Bool {
        if expected.isEmpty {
            #expect(batches.isEmpty, "no-op delivered a batch — \(context)")
            return batches.isEmpty
        }
        guard batches.count == 1, let batch = batches.first else {
            Issue.record("expected one batch, got \(batches.count) — \(context)")
            return false
        }
        #expect(batch.sectionDeletions == expected.sectionDeletions, "section deletions — \(context)")
        #expect(batch.sectionInsertions == expected.sectionInsertions, "section insertions — \(context)")
        #expect(batch.itemDeletions == expected.itemDeletions, "item deletions — \(context)")
        #expect(batch.itemInsertions == expected.itemInsertions, "item insertions — \(context)")
        #expect(batch.itemReloads == expected.itemReloads, "item reloads — \(context)")
        #expect(batch.itemMoves.count == expected.minimumMoves, "moves \(batch.itemMoves), minimum \(expected.minimumMoves) — \(context)")
        let movedIDs = Set(batch.itemMoves.map { batch.old[$0.from].id })
        #expect(expected.sectionChangers.isSubset(of: movedIDs), "a row that changed section did not move — \(context)")
        if let movable = expected.movable {
            #expect(movedIDs.isSubset(of: movable), "an untouched row moved — \(context)")
        }
        #expect(batch.version == batch.old.version + 1 && batch.rows.version == batch.version, "\(context)")
        expectSectionedInvariants(batch, context: context)
        return true
    }

    @Test("each call's batch equals the oracle's, with the fewest index-path moves", arguments: Grouping.allCases)
    func batchesMatchOracle(grouping: Grouping) async {
        for seed in 0..<Self.seedCount {
            var rng = SplitMix64(seed: seed &+ 40_000)
            var (source, oracle) = Self.makeList(grouping, seed: seed)
            let recorder = SectionedBatchRecorder<Int, TestRow>()
            source.attach(recorder)
            _ = await source.flush()
            _ = recorder.take()
            var log: [String] = []
            for _ in 0..<rng.int(in: 4..<16) {
                oracle.beginBatch()
                log.append(Self.randomMutation(&rng, oracle: &oracle, source: source, idPool: rng.chance(0.5) ? 8 : 30))
                let snapshot = await source.flush()
                let context = "seed \(seed), sections \(grouping): \(log.joined(separator: "; "))"
                #expect(isSameNested(nestedRows(of: snapshot), oracle.nested), "rows differ — \(context)")
                let batches = recorder.take()
                for batch in batches {
                    var sections = batch.old.sections.map { $0.rows.map { batch.old.rows[$0] } }
                    batch.apply(to: &sections)
                    #expect(sections == batch.new.sections.map { $0.rows.map { batch.new.rows[$0] } }, "apply(to:) — \(context)")
                }
                guard Self.expect(batches, toMatch: oracle.expectedBatch(), context: context) else { return }
            }
        }
    }

    @Test("coalesced calls: replaying every batch from the attach batch gives the oracle's sections", arguments: Grouping.allCases)
    func coalescedBatches(grouping: Grouping) async {
        for seed in 0..<Self.seedCount {
            var rng = SplitMix64(seed: seed &+ 50_000)
            var (source, oracle) = Self.makeList(grouping, seed: seed)
            let recorder = SectionedBatchRecorder<Int, TestRow>()
            source.attach(recorder)
            var log: [String] = []
            for _ in 0..<rng.int(in: 4..<20) {
                log.append(Self.randomMutation(&rng, oracle: &oracle, source: source, idPool: 20))
            }
            let snapshot = await source.flush()
            let context = "seed \(seed), sections \(grouping): \(log.joined(separator: "; "))"
            #expect(isSameNested(nestedRows(of: snapshot), oracle.nested), "rows differ — \(context)")
            var replayed: NestedRows<Int, TestRow> = []
            var version: Int? = nil
            for batch in recorder.batches {
                if let version { #expect(batch.version == version + 1, "version gap — \(context)") }
                version = batch.version
                applySteps(batch.steps, to: &replayed)
                expectSectionedInvariants(batch, context: context)
            }
            #expect(isSameNested(replayed, oracle.nested), "replayed steps differ — \(context)")
        }
    }

    @Test("large calls on longer lists give the oracle's batch, with the fewest index-path moves", arguments: 0..<24)
    func largeCallsMatchOracle(seed: UInt64) async {
        var rng = SplitMix64(seed: seed &+ 60_000)
        let grouping = seed % 2 == 0 ? Grouping.tierOfKey : .idModulo
        let keys = seed % 4 < 2 ? 1_000 : 10
        let tierWidth = keys / 5
        let byTier: @Sendable (TestRow) -> Int = { $0.key / tierWidth }
        let sectionOf = grouping == .tierOfKey ? byTier : grouping.sectionOf
        let initial = (0..<700).map { TestRow(id: $0, key: rng.int(in: 0..<keys)) }
        let source = SectionedListDataSource<Int, TestRow>(sectionedBy: sectionOf)
        var oracle = SectionedOracle<Int, TestRow>(sectionOf: sectionOf, sortedBy: { $0.key < $1.key })
        source.add(initial)
        oracle.add(initial)
        let recorder = SectionedBatchRecorder<Int, TestRow>()
        source.attach(recorder)
        _ = await source.flush()
        _ = recorder.take()
        for round in 0..<4 {
            oracle.beginBatch()
            // Hold the diff queue inside a re-sort to the same order, so that the calls
            // below are taken by one drain as one run.
            let hold = DiffQueueHold()
            source.sort(by: { hold.holdOnce(); return $0.key < $1.key })
            hold.entered.wait()
            var log: [String] = []
            for _ in 0..<rng.int(in: 1..<4) {
                if rng.chance(0.3) {
                    let ids = (0..<rng.int(in: 30..<90)).map { _ in rng.int(in: 0..<800) }
                    oracle.remove(ids: ids)
                    source.remove(ids: ids)
                    log.append("remove \(ids)")
                } else {
                    let items = (0..<rng.int(in: 30..<90)).map { _ -> TestRow in
                        let id = rng.int(in: 0..<800)
                        guard let existing = oracle.rows.first(where: { $0.id == id }), rng.chance(0.7) else { return TestRow(id: id, key: rng.int(in: 0..<keys)) }
                        return rng.chance(0.3) ? TestRow(id: id, key: existing.key, payload: existing.payload + 1) : TestRow(id: id, key: rng.int(in: 0..<keys))
                    }
                    oracle.add(items)
                    source.add(items)
                    log.append("add \(items)")
                }
            }
            hold.release.signal()
            let snapshot = await source.flush()
            let context = "seed \(seed) round \(round), sections \(grouping): \(log.joined(separator: "; "))"
            #expect(isSameNested(nestedRows(of: snapshot), oracle.nested), "rows differ — \(context)")
            Self.expect(recorder.take(), toMatch: oracle.expectedBatch(), context: context)
        }
    }
}

/// Checks invariants S1 and S4 on a delivered sectioned batch, through the public API
/// only: the sets and the steps each turn `old` into `new`, sections are ordered by key,
/// non-empty and contiguous and cover the rows, and the sets are sorted.
func expectSectionedInvariants<Item>(_ batch: SectionedChangeBatch<Int, Item>, context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let old = nestedRows(of: batch.old), new = nestedRows(of: batch.new)
    var bySets = old
    applySets(of: batch, to: &bySets)
    #expect(isSameNested(bySets, new), "sets do not apply — \(context)", sourceLocation: sourceLocation)
    var bySteps = old
    applySteps(batch.steps, to: &bySteps)
    #expect(isSameNested(bySteps, new), "steps do not apply — \(context)", sourceLocation: sourceLocation)
    let stepCount = batch.sectionDeletions.count + batch.sectionInsertions.count + batch.itemDeletions.count + batch.itemInsertions.count
        + batch.itemMoves.count + batch.itemReloads.count
    #expect(batch.steps.count == stepCount, "one step per change — \(context)", sourceLocation: sourceLocation)
    for snapshot in [batch.old, batch.new] {
        var next = 0
        for (offset, section) in snapshot.sections.enumerated() {
            #expect(!section.rows.isEmpty && section.rows.lowerBound == next, "sections not contiguous — \(context)", sourceLocation: sourceLocation)
            if offset > 0 { #expect(snapshot.sections[offset - 1].key < section.key, "keys out of order — \(context)", sourceLocation: sourceLocation) }
            #expect(snapshot.sectionIndex(of: section.key) == offset, sourceLocation: sourceLocation)
            next = section.rows.upperBound
        }
        #expect(next == snapshot.rows.count, "sections do not cover the rows — \(context)", sourceLocation: sourceLocation)
        for (offset, row) in snapshot.rows.enumerated() {
            guard let path = snapshot.indexPath(of: row.id) else {
                Issue.record("no index path for a row — \(context)", sourceLocation: sourceLocation)
                continue
            }
            #expect(snapshot.sections[path.section].rows.lowerBound + path.item == offset, "index path of a row — \(context)", sourceLocation: sourceLocation)
        }
    }
    #expect(batch.itemDeletions == batch.itemDeletions.sorted() && batch.itemInsertions == batch.itemInsertions.sorted() && batch.itemReloads == batch.itemReloads.sorted(), sourceLocation: sourceLocation)
    #expect(batch.sectionDeletions == batch.sectionDeletions.sorted() && batch.sectionInsertions == batch.sectionInsertions.sorted(), sourceLocation: sourceLocation)
    #expect(batch.itemMoves.map(\.to) == batch.itemMoves.map(\.to).sorted(), "moves ordered by destination — \(context)", sourceLocation: sourceLocation)
    #expect(batch.rows.moves.count == batch.itemMoves.count, "flat and sectioned moves differ — \(context)", sourceLocation: sourceLocation)
}

@testable import ListEngine
import ListTestSupport
import Testing

/// How many entries the id index of a list of `rowCount` rows holds: one per row, or
/// none for a list short enough to go without an index.
func expectedIndexCount(_ rowCount: Int) -> Int {
    rowCount > _Tuning.unindexedListMaximumRows ? rowCount : 0
}

/// A list of at most `_Tuning.unindexedListMaximumRows` rows keeps no id index and finds
/// ids by reading its rows; a longer one keeps an index of every row. Lists that grow
/// and shrink across that size, one row at a time and in bulk, must hold what the
/// oracle holds, find every id at its row, and keep the index exactly when they are
/// long enough.
@Suite(.cpuBound) struct UnindexedListTests {
    static let seeds = propertySeedCount(default: 100)

    /// Records an issue unless `storage` holds `expected`, finds each of its ids (and
    /// none of `absent`) at its row, and keeps an index exactly when it is long enough.
    ///
    /// - Parameter every: looks up one row in this many (all when 1).
    static func expect(_ storage: _ListStorage<TestRow>, holds expected: [TestRow], absent: [Int], every: Int = 1, _ context: @autoclosure () -> String) {
        let rows = Array(storage.rows)
        guard rows == expected else {
            Issue.record("rows \(rows.prefix(8)) ≠ \(expected.prefix(8)) — \(context())")
            return
        }
        #expect(storage.ids.count == expectedIndexCount(rows.count), "\(rows.count) rows, \(storage.ids.count) index entries — \(context())")
        for (offset, row) in rows.enumerated()
        where offset % every == 0 && (storage[id: row.id] != row || storage.position(of: row.id) != offset) {
            Issue.record("id \(row.id) not found at \(offset) — \(context())")
            return
        }
        for id in absent where storage[id: id] != nil || storage.position(of: id) != nil {
            Issue.record("absent id \(id) found — \(context())")
            return
        }
    }

    @Test("lists crossing the size that keeps an id index equal the oracle and find every id")
    func crossingTheThreshold() {
        let limit = _Tuning.unindexedListMaximumRows
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 81_000)
            let idRange = limit * 3
            let keys = rng.chance(0.5) ? 6 : 10_000  // many ties, or few
            var storage = _ListStorage<TestRow>(comparator: .natural)
            var oracle = ListOracle<TestRow>(sortedBy: <)
            // Start anywhere from empty to well past the limit.
            let start = (0 ..< rng.int(in: 0 ..< 2 * limit)).map { TestRow(id: $0, key: rng.int(in: 0 ..< keys)) }.shuffled(using: &rng)
            storage.add(contentsOf: start)
            oracle.add(start)
            for step in 0 ..< 60 {
                let context = "seed \(seed) step \(step)"
                switch rng.int(in: 0 ..< 10) {
                case 0 ..< 4:  // one row: new, re-keyed, new content, or unchanged
                    let id = rng.int(in: 0 ..< idRange)
                    let item = rng.chance(0.2) ? (oracle.rows.first { $0.id == id } ?? TestRow(id: id, key: 0))
                        : TestRow(id: id, key: rng.int(in: 0 ..< keys), payload: rng.int(in: 0 ..< 3))
                    storage.add(item)
                    oracle.add([item])
                case 4 ..< 8:  // one id, present or not
                    let id = rng.chance(0.8) && !oracle.rows.isEmpty ? oracle.rows[rng.int(in: 0 ..< oracle.rows.count)].id : rng.int(in: 0 ..< idRange)
                    storage.remove(id: id)
                    oracle.remove(ids: [id])
                case 8:  // many rows at once, through the merge and bulk paths
                    let items = (0 ..< rng.int(in: 1 ..< 2 * limit)).map { _ in
                        TestRow(id: rng.int(in: 0 ..< idRange), key: rng.int(in: 0 ..< keys), payload: rng.int(in: 0 ..< 3))
                    }
                    storage.add(contentsOf: items)
                    oracle.add(items)
                default:  // keep only some ids, rebuilt when many go
                    let keep = Set(oracle.rows.map(\.id).filter { _ in rng.chance(0.6) })
                    storage.removeAll(notIn: keep)
                    oracle.remove(ids: oracle.rows.map(\.id).filter { !keep.contains($0) })
                }
                let present = Set(oracle.rows.map(\.id))
                let absent = (0 ..< 4).map { _ in rng.int(in: 0 ..< idRange) }.filter { !present.contains($0) }
                // Every id is looked up now and then, and at the end; a few at each step.
                Self.expect(storage, holds: oracle.rows, absent: absent, every: step % 20 == 19 ? 1 : 17, context)
            }
        }
    }

    @Test("a bulk edit and a replacement of a list without an index equal one-at-a-time calls")
    func bulkPathsWithoutAnIndex() {
        let limit = _Tuning.unindexedListMaximumRows
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 82_000)
            let rows = (0 ..< rng.int(in: 1 ..< limit + 1)).map { TestRow(id: $0, key: $0 * 10) }
            var storage = _ListStorage<TestRow>(comparator: .natural)
            storage.add(contentsOf: rows)
            #expect(storage.ids.isEmpty, "seed \(seed): a list of \(rows.count) rows keeps an index")
            // Re-keys to unused keys (no ties, so the bulk path applies), new rows, removals.
            var run = _EditRun<TestRow>()
            run.add((0 ..< rng.int(in: 1 ..< 2 * limit)).map { _ in
                TestRow(id: rng.int(in: 0 ..< 2 * limit), key: rng.int(in: 0 ..< 100_000) * 10 + 5, payload: 1)
            })
            run.remove((0 ..< rng.int(in: 0 ..< limit)).map { _ in rng.int(in: 0 ..< 2 * limit) })
            var sequential = storage
            sequential.apply(run)
            if let (edited, _) = storage._editing(run) {
                Self.expect(edited, holds: Array(sequential.rows), absent: [], "bulk edit, seed \(seed)")
            }
            var replaced = storage
            let replacement = rows.filter { _ in rng.chance(0.7) }.map { rng.chance(0.5) ? $0 : TestRow(id: $0.id, key: $0.key + 1) }
                + (0 ..< rng.int(in: 0 ..< 2 * limit)).map { TestRow(id: 1_000 + $0, key: rng.int(in: 0 ..< 100_000) * 10 + 7) }
            replaced.replaceAll(with: replacement)
            var oracle = ListOracle<TestRow>(sortedBy: <)
            oracle.add(rows)
            oracle.replaceAll(with: replacement)
            Self.expect(replaced, holds: oracle.rows, absent: [], "replaceAll, seed \(seed)")
        }
    }

    /// A copy of `id` in storage of its own: equal to it, with other bytes when it is
    /// longer than a string stored inline (15 bytes).
    static func separatelyStored(_ id: String) -> String {
        String(decoding: Array(id.utf8), as: UTF8.self)
    }

    @Test("a list without an index finds an id equal to the one asked for but stored apart")
    func idsEqualWithOtherBytes() {
        typealias Row = DataSourceItem<Int>
        let limit = _Tuning.unindexedListMaximumRows
        for seed in 0 ..< Self.seeds {
            var rng = SplitMix64(seed: seed &+ 83_000)
            // Short uids are stored inline, so equal ones have equal bytes; long ones are
            // not, and each copy made by `separatelyStored` has bytes of its own.
            func uid(_ number: Int) -> String {
                number % 2 == 0 ? "r\(number)" : "a row whose uid is longer than fifteen bytes, \(number)"
            }
            var storage = _ListStorage<Row>(comparator: .natural)
            var oracle = ListOracle<Row>(sortedBy: <)
            let start = (0 ..< rng.int(in: 1 ..< limit)).map { Row(uid: uid($0), value: $0, index: Double(rng.int(in: 0 ..< 1_000_000))) }
            storage.add(contentsOf: start)
            oracle.add(start)
            for step in 0 ..< 40 {
                let number = rng.int(in: 0 ..< limit)
                let id = Self.separatelyStored(uid(number))
                switch rng.int(in: 0 ..< 3) {
                case 0:  // re-keyed or new
                    let row = Row(uid: id, value: number, index: Double(rng.int(in: 0 ..< 1_000_000)))
                    storage.add(row)
                    oracle.add([row])
                case 1:
                    storage.remove(id: id)
                    oracle.remove(ids: [id])
                default:
                    break
                }
                let expectedPosition = oracle.rows.firstIndex { $0.uid == id }
                guard Array(storage.rows) == oracle.rows, storage.ids.isEmpty, storage.position(of: id) == expectedPosition,
                      storage[id: id] == expectedPosition.map({ oracle.rows[$0] }) else {
                    let found = storage.position(of: id).map(String.init) ?? "none"
                    let expected = expectedPosition.map(String.init) ?? "none"
                    Issue.record("seed \(seed) step \(step), id \(id): \(storage.count) rows (\(oracle.rows.count) expected), found at \(found) (\(expected) expected)")
                    break
                }
            }
        }
    }
}

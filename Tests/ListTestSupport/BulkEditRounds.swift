import ListEngine

/// Rounds of `add` and `remove(ids:)` calls large enough for the engine's bulk edit, on
/// rows whose keys never tie, with the rows they should leave.
public struct BulkEditRounds {
    /// The rows the list should hold, by id.
    public private(set) var expected: [Int: TestRow] = [:]
    private var rng: SplitMix64

    /// Rows with ids `0 ..< count`, drawn from `seed`.
    public init(count: Int, seed: UInt64) {
        rng = SplitMix64(seed: seed)
        for id in 0 ..< count { expected[id] = Self.row(id, &rng) }
    }

    /// A row whose key is distinct from every other id's (the id in its low digits), so
    /// no placed row ties with another and every round takes the one-pass path.
    public static func row(_ id: Int, _ rng: inout SplitMix64) -> TestRow {
        TestRow(id: id, key: rng.int(in: 0 ..< 1_000_000) * 100_000 + id, payload: rng.int(in: 0 ..< 3))
    }

    /// The expected rows in row order.
    public var rows: [TestRow] { expected.values.sorted { $0.key < $1.key } }

    /// Adds `added` rows and removes `removed` ids, all below `idLimit`, then flushes.
    public mutating func round(on source: ListDataSource<TestRow>, adding added: Int, removing removed: Int, idsBelow idLimit: Int) async {
        let items = (0 ..< added).map { _ in Self.row(rng.int(in: 0 ..< idLimit), &rng) }
        let ids = (0 ..< removed).map { _ in rng.int(in: 0 ..< idLimit) }
        source.add(items)
        source.remove(ids: ids)
        for item in items { expected[item.id] = item }
        for id in ids { expected[id] = nil }
        await source.flush()
    }
}

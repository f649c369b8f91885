import ListEngine

/// The row type of every scenario: the ready-made item with an `Int` payload.
public typealias Row = DataSourceItem<Int>

/// Deterministic rows for the scenarios.
///
/// Row *k* has uid `r` + *k* in seven digits (a small string, stored inline), payload *k*,
/// and a pseudo-random sort index in `0 ..< 1`, so generation order is unrelated to
/// row order and no two rows tie.
public enum Rows {
    /// The uid of row `number`.
    public static func uid(_ number: Int, prefix: Character = "r") -> String {
        let digits = String(number)
        return String(prefix) + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// `count` rows numbered from `start`, in generation (not sorted) order.
    public static func make(count: Int, start: Int = 0, prefix: Character = "r", seed: UInt64) -> [Row] {
        var rng = SplitMix64(seed: seed)
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for number in start ..< start + count {
            rows.append(Row(uid: uid(number, prefix: prefix), value: number, index: rng.unitDouble()))
        }
        return rows
    }

    /// `count` distinct offsets in `0 ..< upperBound`, in random order.
    public static func distinctOffsets(count: Int, in upperBound: Int, rng: inout SplitMix64) -> [Int] {
        precondition(count <= upperBound, "cannot pick \(count) distinct offsets below \(upperBound)")
        var picked = Set<Int>(minimumCapacity: count)
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        while offsets.count < count {
            let offset = rng.int(in: 0 ..< upperBound)
            if picked.insert(offset).inserted { offsets.append(offset) }
        }
        return offsets
    }
}

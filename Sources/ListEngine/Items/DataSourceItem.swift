/// A ready-made row: a string uid, a payload, and a numeric sort index.
///
/// Rows order by `index`, then by `uid`, so two different items never tie. The index is
/// compared with the IEEE 754 *total order*: `-NaN < -∞ < … < -0.0 < +0.0 < … < +∞ < +NaN`.
/// A NaN or a negative zero therefore has a fixed place and can never break sorting.
/// Content equality compares the index bit for bit, so an item whose index is NaN is
/// equal to itself (re-adding it is a no-op), and `-0.0` and `+0.0` are different content.
///
/// ```swift
/// let source = ListDataSource<DataSourceItem<String>>()
/// source.add([DataSourceItem(uid: "b", value: "Bravo", index: 2),
///             DataSourceItem(uid: "a", value: "Alpha", index: 1)])
/// // rows: a, b
/// ```
///
/// Code written for T21TableViewDataSource can keep its unlabeled calls, which take the
/// value first: ``init(_:_:_:)``.
public struct DataSourceItem<Value: Hashable & Sendable>: DataSourceComparable, Hashable, Sendable {
    /// The unique identifier of the row.
    public var uid: String
    // `index` is stored before the generic `value`, so its offset does not depend on
    // `Value`: `<` then reads `uid` and `index` without asking the runtime for the layout
    // of `DataSourceItem<Value>`, which unspecialized generic code otherwise does on every
    // comparison (about three times the cost of the comparison itself).

    /// The sort key: rows are ordered by ascending index, ties broken by `uid`.
    public var index: Double
    /// The payload shown by a renderer.
    public var value: Value

    /// Creates a row.
    /// - Parameters:
    ///   - uid: The unique identifier of the row.
    ///   - value: The payload.
    ///   - index: The sort key; any `Double` is allowed, including NaN and infinities.
    /// - Complexity: O(1).
    @inlinable public init(uid: String, value: Value, index: Double) {
        self.uid = uid
        self.value = value
        self.index = index
    }

    /// Creates a row from unlabeled arguments in T21TableViewDataSource's order: value
    /// first, then uid, then index.
    ///
    /// This is the order of T21's `DataSourceItem(_:_:_:)`, so code written for it keeps
    /// its meaning: `DataSourceItem("This item is A", "itemA", 1.0)` is the row with uid
    /// `"itemA"`, showing `"This item is A"`, at index 1.
    ///
    /// The order differs from ``init(uid:value:index:)``, which puts the identity first
    /// and names every argument. This initializer keeps T21's order because with a
    /// `String` value the two strings swapped still compile: T21 code moved to the
    /// labeled form with its arguments in their old places would make every row's title
    /// its uid, and an update of a row by uid would add a new row instead. The labels
    /// decide which initializer a call reaches, so a call without labels always means
    /// value, uid, index.
    ///
    /// ```swift
    /// let itemA = DataSourceItem("This item is A", "itemA", 1.0)
    /// itemA.uid     // "itemA"
    /// itemA.value   // "This item is A"
    /// ```
    ///
    /// The default index, -1, is T21's: rows made without an index sort before rows at
    /// index 0 and above, and among themselves by `uid`. T21's index is a `Float`; pass
    /// `Double(index)` for a `Float` variable (literals need nothing).
    ///
    /// - Parameters:
    ///   - value: The payload.
    ///   - uid: The unique identifier of the row.
    ///   - index: The sort key; any `Double` is allowed, including NaN and infinities.
    /// - Complexity: O(1).
    @inlinable public init(_ value: Value, _ uid: String, _ index: Double = -1) {
        self.init(uid: uid, value: value, index: index)
    }

    /// The identity of the row: its `uid`.
    ///
    /// - Complexity: O(1).
    @inlinable public var id: String { uid }

    /// Orders by `index` (IEEE total order), then by `uid`.
    ///
    /// - Parameters:
    ///   - lhs: an item.
    ///   - rhs: another item.
    /// - Returns: whether `lhs` sorts before `rhs`.
    /// - Complexity: O(1) plus one string comparison on equal indices.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool {
        let lhsKey = lhs.index._totalOrderKey, rhsKey = rhs.index._totalOrderKey
        if lhsKey != rhsKey { return lhsKey < rhsKey }
        return lhs.uid < rhs.uid
    }

    /// Content equality: same uid, same value, and bit-identical index.
    ///
    /// - Parameters:
    ///   - lhs: an item.
    ///   - rhs: another item.
    /// - Returns: whether the two items have the same content.
    /// - Complexity: O(1) plus a string comparison and the values' `==`.
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.uid == rhs.uid && lhs.index.bitPattern == rhs.index.bitPattern && lhs.value == rhs.value
    }

    /// Hashes the content that `==` compares: `uid`, the index's bit pattern and `value`.
    ///
    /// - Parameter hasher: the hasher to feed.
    /// - Complexity: O(1) plus hashing `uid` and `value`.
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(index.bitPattern)
        hasher.combine(value)
    }
}

/// An item encodes as an object with its three properties, `uid`, `value` and `index`,
/// when its value encodes, so it can come straight from JSON (with `HTTPPageLoader`,
/// say):
///
/// ```json
/// {"uid": "p7", "value": "Ada", "index": 2.5}
/// ```
///
/// `JSONEncoder` refuses a NaN or infinite `index` unless told how to write one.
extension DataSourceItem: Encodable where Value: Encodable {}

extension DataSourceItem: Decodable where Value: Decodable {}

extension Double {
    /// An unsigned key whose natural order is the IEEE 754 total order of the value.
    ///
    /// Negative values (sign bit set) have all bits flipped, so larger magnitudes sort
    /// first; non-negative values get the sign bit set, so they sort after all negatives.
    /// Distinct bit patterns give distinct keys.

    @inlinable var _totalOrderKey: UInt64 {
        let bits = bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }
}

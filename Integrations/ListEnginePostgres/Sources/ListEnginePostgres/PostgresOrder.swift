import PostgresNIO

/// One column of a list's order in SQL: its name and direction.
///
/// The columns of an order, together, must name one row (end with a unique column, as
/// `score DESC, id`), be `NOT NULL`, and sort in SQL as the items' `<` sorts them in
/// Swift (for text, a `COLLATE "C"` column sorts by bytes, as ASCII ids do in Swift).
public struct PostgresOrderColumn: Sendable, Hashable {
    /// The column.
    public let name: PostgresIdentifier
    /// Whether larger values come first.
    public let isDescending: Bool

    /// A column whose smaller values come first.
    ///
    /// - Parameter name: the column's name.
    /// - Throws: ``PostgresListError/badIdentifier(_:)``.
    /// - Complexity: O(length of `name`).
    public static func ascending(_ name: String) throws(PostgresListError) -> Self {
        Self(name: try PostgresIdentifier(name), isDescending: false)
    }

    /// A column whose larger values come first.
    ///
    /// - Parameter name: the column's name.
    /// - Throws: ``PostgresListError/badIdentifier(_:)``.
    /// - Complexity: O(length of `name`).
    public static func descending(_ name: String) throws(PostgresListError) -> Self {
        Self(name: try PostgresIdentifier(name), isDescending: true)
    }

    /// `"name" DESC` or `"name" ASC`, or the reverse.
    func sql(reversed: Bool) -> String {
        "\(name.sql) \(isDescending != reversed ? "DESC" : "ASC")"
    }
}

/// A row's place in a list's order: its values of the order's columns, in order, sent to
/// PostgreSQL as bound parameters.
///
/// ```swift
/// let key = PostgresKey(player.score, player.id)  // ORDER BY score DESC, id
/// ```
public struct PostgresKey: Sendable, CustomStringConvertible {
    /// The values, one per order column.
    public let values: [any PostgresThrowingDynamicTypeEncodable & Sendable]
    private let text: String

    /// A key of these values, one per order column.
    ///
    /// - Parameter values: the row's values of the order's columns, in order.
    /// - Complexity: O(values).
    public init(_ values: any PostgresThrowingDynamicTypeEncodable & Sendable...) {
        self.init(values: values)
    }

    /// A key of these values, one per order column.
    ///
    /// - Parameter values: the row's values of the order's columns, in order.
    /// - Complexity: O(values).
    public init(values: [any PostgresThrowingDynamicTypeEncodable & Sendable]) {
        self.values = values
        text = "(" + values.map { "\($0)" }.joined(separator: ", ") + ")"
    }

    /// The values in parentheses, for logs.
    public var description: String { text }
}

/// The SQL of keyset reads on one relation: the conditions "after", "before" and "at" a
/// key, written with bound parameters only.
struct KeysetSQL: Sendable {
    let relation: PostgresIdentifier
    let columns: [PostgresIdentifier]
    let order: [PostgresOrderColumn]
    let idColumn: PostgresIdentifier

    var selectList: String { columns.map(\.sql).joined(separator: ", ") }

    /// `ORDER BY` the order, or its reverse.
    func orderBy(reversed: Bool) -> String {
        "ORDER BY " + order.map { $0.sql(reversed: reversed) }.joined(separator: ", ")
    }

    /// The rows strictly after `key` in the order (before it when `before`), or also the
    /// row at it when `inclusive`: for columns c₁…cₙ, the OR over i of "c₁ = k₁ AND … AND
    /// cᵢ₋₁ = kᵢ₋₁ AND cᵢ beyond kᵢ", beyond being `>` for an ascending column after the
    /// key and `<` for a descending one (the reverse before it).
    func condition(_ key: PostgresKey, before: Bool, inclusive: Bool, into bindings: inout PostgresBindings) throws -> String {
        guard key.values.count == order.count, !order.isEmpty else {
            throw PostgresListError.badKey(expected: order.count, got: key.values.count)
        }
        func bind(_ value: some PostgresThrowingDynamicTypeEncodable) throws -> String {
            try bindings.append(value)
            return "$\(bindings.count)"
        }
        var terms: [String] = []
        for index in order.indices {
            var parts: [String] = []
            for earlier in 0 ..< index {
                parts.append("\(order[earlier].name.sql) = \(try bind(key.values[earlier]))")
            }
            let greater = order[index].isDescending == before
            parts.append("\(order[index].name.sql) \(greater ? ">" : "<") \(try bind(key.values[index]))")
            terms.append("(" + parts.joined(separator: " AND ") + ")")
        }
        if inclusive {
            var parts: [String] = []
            for index in order.indices {
                parts.append("\(order[index].name.sql) = \(try bind(key.values[index]))")
            }
            terms.append("(" + parts.joined(separator: " AND ") + ")")
        }
        return "(" + terms.joined(separator: " OR ") + ")"
    }
}

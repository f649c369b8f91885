/// A table, view, column or channel name, checked once and then written into SQL quoted.
///
/// Values never go into SQL text (they are bound parameters); names cannot be bound, so
/// they are limited to what needs no escaping beyond quotes: a letter or `_`, then
/// letters, digits or `_`, at most 63 bytes (PostgreSQL's limit). A name may be
/// qualified by a schema (`public.players`). Written quoted, it is case-sensitive:
/// `players` names the table `CREATE TABLE players` made.
public struct PostgresIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The parts of the name: the schema, if any, then the name.
    public let parts: [String]

    /// Checks `name`.
    ///
    /// - Parameter name: a name, or `schema.name`.
    /// - Throws: ``PostgresListError/badIdentifier(_:)`` for anything else.
    /// - Complexity: O(length of `name`).
    public init(_ name: String) throws(PostgresListError) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard (1 ... 2).contains(parts.count), parts.allSatisfy(Self.isPlain) else { throw .badIdentifier(name) }
        self.parts = parts
    }

    /// The name as SQL: each part in double quotes.
    ///
    /// - Complexity: O(length of the name).
    public var sql: String { parts.map { "\"\($0)\"" }.joined(separator: ".") }

    /// The name as given.
    public var description: String { parts.joined(separator: ".") }

    /// Whether `part` is a letter or `_`, then letters, digits or `_`, 1–63 bytes.
    static func isPlain(_ part: String) -> Bool {
        let bytes = Array(part.utf8)
        guard let first = bytes.first, bytes.count <= 63 else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
        }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }
}

/// What went wrong in the PostgreSQL integration before a query ran.
public enum PostgresListError: Error, Equatable, CustomStringConvertible {
    /// A table, view, column or channel name that is not a plain identifier.
    case badIdentifier(String)
    /// The order has no column, or a key has not one value per order column.
    case badKey(expected: Int, got: Int)
    /// A connection string that is not `postgres://user[:password]@host[:port]/database`.
    case badURL(String)

    /// What went wrong, for a person.
    public var description: String {
        switch self {
        case .badIdentifier(let name):
            "\"\(name)\" is not a plain identifier: a letter or _, then letters, digits or _, at most 63 bytes (optionally schema.name)"
        case .badKey(let expected, let got):
            "a key needs one value per order column: \(expected) expected, \(got) given"
        case .badURL(let url):
            "\"\(url)\" is not a PostgreSQL URL: postgres://user[:password]@host[:port]/database"
        }
    }
}

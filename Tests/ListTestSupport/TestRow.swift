import ListEngine

/// A row for property tests: small integer ids, a sort key with many ties, a payload.
///
/// The default order is by `key` only, so rows with equal keys tie and their order is
/// decided by arrival (upper-bound insertion) — the case naive engines get wrong.
public struct TestRow: Hashable, DataSourceComparable, CustomStringConvertible {
    public var id: Int
    public var key: Int
    public var payload: Int

    public init(id: Int, key: Int, payload: Int = 0) {
        self.id = id
        self.key = key
        self.payload = payload
    }

    public static func < (lhs: TestRow, rhs: TestRow) -> Bool { lhs.key < rhs.key }

    public var description: String { "#\(id)(\(key)\(payload == 0 ? "" : "/\(payload)"))" }
}

/// Comparators the property tests switch between with `sort(by:)`.
public enum TestOrder: CaseIterable, Sendable {
    case keyAscending, keyDescending, payloadAscending, idDescending

    public var comparator: @Sendable (TestRow, TestRow) -> Bool {
        switch self {
        case .keyAscending: { $0.key < $1.key }
        case .keyDescending: { $0.key > $1.key }
        case .payloadAscending: { $0.payload < $1.payload }
        case .idDescending: { $0.id > $1.id }
        }
    }
}

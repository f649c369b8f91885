import ListEngine
import ListPagination
import Synchronization

/// A keyset-paged source of `count` rows that are computed, not stored: row *k* is made
/// from *k* whenever a page asks for it, so a million-row source costs no memory of its
/// own beside the pages in flight.
///
/// Row *k* has uid `k` + *k* in seven digits, payload *k* and sort index *k*, so rows
/// sort by number and the payload is the keyset key. The source records the cursor of
/// every request, for a scenario to check which pages were asked for.
///
/// ```swift
/// let source = KeysetRowSource(count: 1_000_000)
/// let paginator = Paginator(loader: source.loader(pageSize: 100), maxLoadedRows: 1_000)
/// paginator.loadNextPage()            // fetches rows 0 ... 100 (one more, to see a next page)
/// source.takeRequests()               // [nil]
/// ```
public final class KeysetRowSource: Sendable {
    /// The number of rows.
    public let count: Int
    /// The cursors requested since the last ``takeRequests()``, in order.
    private let requests = Mutex<[KeysetCursor<Int>?]>([])

    /// Creates a source of rows `0 ..< count`.
    ///
    /// - Parameter count: the number of rows, at most 10,000,000 (seven-digit uids).
    /// - Complexity: O(1).
    public init(count: Int) {
        precondition(count >= 0 && count <= 10_000_000, "KeysetRowSource holds 0 to 10,000,000 rows, not \(count)")
        self.count = count
    }

    /// Row `number`.
    ///
    /// - Complexity: O(1).
    public static func row(_ number: Int) -> Row {
        Row(uid: Rows.uid(number, prefix: "k"), value: number, index: Double(number))
    }

    /// The rows a ``KeysetLoader`` asks for: up to `limit` rows from the start (`nil`),
    /// right after row *k* (`.after(k)`), the `limit` nearest before it (`.before(k)`), or
    /// those and row *k* (`.through(k)`); records the request.
    ///
    /// - Parameters:
    ///   - cursor: where the rows are.
    ///   - limit: the most rows to return.
    /// - Returns: the rows, in order.
    /// - Complexity: O(`limit`).
    public func rows(at cursor: KeysetCursor<Int>?, limit: Int) -> [Row] {
        requests.withLock { $0.append(cursor) }
        let numbers: Range<Int>
        switch cursor {
        case nil: numbers = 0 ..< min(limit, count)
        case .after(let key)?: numbers = min(key + 1, count) ..< min(key + 1 + limit, count)
        case .before(let key)?: numbers = max(0, key - limit) ..< max(0, min(key, count))
        case .through(let key)?: numbers = max(0, key + 1 - limit) ..< max(0, min(key + 1, count))
        }
        return numbers.map(Self.row)
    }

    /// A loader of pages of `pageSize` rows keyed by row number.
    ///
    /// - Complexity: O(1).
    public func loader(pageSize: Int) -> KeysetLoader<Row, Int> {
        KeysetLoader(limit: pageSize, key: { $0.value }) { [self] cursor, limit in
            rows(at: cursor, limit: limit)
        }
    }

    /// Returns the cursors requested since the last call, in order, and forgets them.
    ///
    /// - Complexity: O(1).
    public func takeRequests() -> [KeysetCursor<Int>?] {
        requests.withLock { requests in
            defer { requests = [] }
            return requests
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads pages of JSON over HTTP with `URLSession`, in page-number, offset or cursor mode.
///
/// Each mode adds its query parameters to `url` (names configurable, see
/// ``ParameterNames``) and expects the response shape that list APIs commonly use:
///
/// | mode | request | response `pagination` | last page |
/// | --- | --- | --- | --- |
/// | ``Mode/pageNumber`` | `?page=N&limit=L` | `{"page":1,"limit":50,"totalPages":100,"totalItems":5000}` | page `totalPages`, or a short page when no total is given |
/// | ``Mode/offset`` | `?offset=O&limit=L` | `{"offset":0,"limit":50,"totalItems":5000}` | `totalItems` reached, or a short page |
/// | ``Mode/cursor`` | `?limit=L` first, then `?cursor=C&limit=L` | `{"nextCursor":"c_…"}` | `nextCursor` null or absent |
///
/// The body is `{"data":[…],"pagination":{…}}`, where `data` holds the items. Offset
/// paging can *skip* rows that are deleted meanwhile ahead of the current offset (rows
/// inserted ahead are merely repeated, and the data source keeps them once); cursor
/// paging neither skips nor repeats (see ``OffsetLoader``).
///
/// Every failure is a ``PaginationError`` naming the URL: ``PaginationError/httpStatus(code:url:)``
/// for a status outside 200…299, ``PaginationError/decoding(url:path:description:)`` with
/// the path (`data[3].score`) and position, ``PaginationError/timedOut(url:)`` after
/// ``timeout``, ``PaginationError/transport(url:description:)`` and
/// ``PaginationError/cancelled``.
///
/// ```swift
/// let loader = HTTPPageLoader<Player>(url: URL(string: "https://api.example.com/players")!,
///                                     mode: .cursor, pageSize: 50)
/// let paginator = Paginator(dataSource: players, loader: loader)
/// ```
public struct HTTPPageLoader<Item: Hashable & DataSourceComparable & Decodable>: PageLoader {
    /// The cursor: a page number, an offset or a server token, by mode.
    public typealias Cursor = HTTPPageCursor

    /// How pages are addressed.
    public enum Mode: Hashable, Sendable {
        /// `page` (from 1) and `limit`.
        case pageNumber
        /// `offset` (from 0) and `limit`.
        case offset
        /// An opaque `cursor` from the previous response, and `limit`.
        case cursor
    }

    /// The names of the query parameters.
    public struct ParameterNames: Hashable, Sendable {
        /// The page number parameter; `page` by default.
        public var page: String
        /// The page size parameter; `limit` by default.
        public var limit: String
        /// The offset parameter; `offset` by default.
        public var offset: String
        /// The cursor parameter; `cursor` by default.
        public var cursor: String

        /// Creates parameter names.
        ///
        /// - Parameters:
        ///   - page: the page number parameter; `page` by default.
        ///   - limit: the page size parameter; `limit` by default.
        ///   - offset: the offset parameter; `offset` by default.
        ///   - cursor: the cursor parameter; `cursor` by default.
        public init(page: String = "page", limit: String = "limit", offset: String = "offset", cursor: String = "cursor") {
            self.page = page
            self.limit = limit
            self.offset = offset
            self.cursor = cursor
        }
    }

    /// The endpoint; its own query items are kept.
    public var url: URL
    /// How pages are addressed.
    public var mode: Mode
    /// Rows per page (the `limit` parameter).
    public var pageSize: Int
    /// The query parameter names.
    public var parameterNames: ParameterNames
    /// How long one request may take, from sending to the last byte of the body, in real
    /// time (not on a paginator's injected clock).
    public var timeout: Duration
    /// Extra request headers.
    public var headers: [String: String]
    /// The session requests go through.
    public let session: URLSession
    /// The decoder for response bodies.
    public let decoder: JSONDecoder

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - url: the endpoint.
    ///   - mode: page number, offset or cursor.
    ///   - pageSize: rows per page, at least 1; 50 by default.
    ///   - parameterNames: the query parameter names.
    ///   - timeout: the limit for one request; 30 s by default.
    ///   - headers: extra request headers, such as `Authorization`.
    ///   - session: the session; `URLSession.shared` by default.
    ///   - decoder: the decoder for response bodies.
    public init(
        url: URL,
        mode: Mode,
        pageSize: Int = 50,
        parameterNames: ParameterNames = ParameterNames(),
        timeout: Duration = .seconds(30),
        headers: [String: String] = [:],
        session: URLSession = .shared,
        decoder: JSONDecoder = JSONDecoder()
    ) {
        precondition(pageSize >= 1, "HTTPPageLoader needs a page size of at least 1, got \(pageSize)")
        precondition(timeout > .zero, "HTTPPageLoader needs a positive timeout")
        self.url = url
        self.mode = mode
        self.pageSize = pageSize
        self.parameterNames = parameterNames
        self.timeout = timeout
        self.headers = headers
        self.session = session
        self.decoder = decoder
    }
}

/// A position in an HTTP list: what ``HTTPPageLoader`` puts in the query.
public enum HTTPPageCursor: Hashable, Sendable, CustomStringConvertible {
    /// A page number (``HTTPPageLoader/Mode/pageNumber``).
    case page(Int)
    /// A row offset (``HTTPPageLoader/Mode/offset``).
    case offset(Int)
    /// A server cursor (``HTTPPageLoader/Mode/cursor``).
    case token(String)

    /// The cursor as `page N`, `offset O` or `cursor C`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        switch self {
        case .page(let page): "page \(page)"
        case .offset(let offset): "offset \(offset)"
        case .token(let token): "cursor \(token)"
        }
    }
}

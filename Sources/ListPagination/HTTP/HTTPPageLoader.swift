import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads pages of JSON over HTTP with `URLSession`, by page number, offset, server cursor
/// or next-page URL.
///
/// Each mode adds its query parameters to `url` (names configurable, see
/// ``ParameterNames``) and expects the response shape that list APIs commonly use:
///
/// | mode | request | response | last page |
/// | --- | --- | --- | --- |
/// | ``Mode/pageNumber`` | `?page=N&limit=L` | `"pagination":{"page":1,"limit":50,"totalPages":100,"totalItems":5000}` | page `totalPages`, or a short page when no total is given |
/// | ``Mode/offset`` | `?offset=O&limit=L` | `"pagination":{"offset":0,"limit":50,"totalItems":5000}` | `totalItems` reached, or a short page |
/// | ``Mode/cursor`` | `?limit=L` first, then `?cursor=C&limit=L`, or `?before=C&limit=L` for a previous page | `"pagination":{"nextCursor":"c_…","previousCursor":"c_…"}` | `nextCursor` null or absent |
/// | ``Mode/nextURL`` | `?limit=L` first, then the URL the response names | `"next":"https://…"`, or the header `Link: <https://…>; rel="next"` | no next URL |
///
/// Pages before the first loaded one (``Paginator/loadPreviousPage()``, windows): in
/// ``Mode/cursor`` mode the response may name the page before in
/// ``ResponseKeys/previousCursor`` (`pagination.previousCursor`; null or absent at the
/// start of the list), which is requested as `?before=C&limit=L`
/// (``HTTPPageCursor/before(_:)``); in ``Mode/pageNumber`` and ``Mode/offset`` mode the
/// page before is page *n* − 1 or offset *o* − `pageSize`, which is approximate under
/// concurrent changes (see ``PageNumberLoader``). ``Mode/nextURL`` mode pages forwards
/// only.
///
/// The body is `{"data":[…],"pagination":{…}}`, where `data` holds the items. When an
/// API puts them elsewhere, say where with ``ResponseKeys``: `"data.items"`,
/// `"meta.next"`, `""` for a body that is the array itself. A total the response
/// carries (`totalItems`, `totalPages`) is reported in ``Page/totalItems`` and
/// ``Page/totalPages``, whatever the mode, and a ``Paginator`` shows it in its
/// ``PaginationStatus``.
///
/// In ``Mode/nextURL`` mode the loader follows the full URL of the next page that the
/// response gives, in the body (``ResponseKeys/nextURL``, `next` by default) or else in
/// an HTTP `Link` header with `rel="next"` (RFC 8288). A relative URL is resolved
/// against the URL of the request; only `http` and `https` URLs are followed. The
/// extra ``headers`` (a token, say) are sent only to the origin — scheme, host and
/// port — of ``url``: a next page elsewhere is requested without them.
///
/// Offset paging can *skip* rows that are deleted meanwhile ahead of the current offset
/// (rows inserted ahead are merely repeated, and the data source keeps them once);
/// cursor paging neither skips nor repeats (see ``OffsetLoader``).
///
/// Every failure is a ``PaginationError`` naming the URL:
/// ``PaginationError/httpStatus(code:url:body:)`` for a status outside 200…299, with the
/// start of the server's answer (see ``PaginationError/bodyExcerpt(_:)``);
/// ``PaginationError/decoding(url:path:description:)`` with the path (`data[3].score`)
/// and the position of the value at fault; ``PaginationError/timedOut(url:)`` after
/// ``timeout``, ``PaginationError/transport(url:description:)`` and
/// ``PaginationError/cancelled``.
///
/// ```swift
/// let loader = HTTPPageLoader<Player>(url: URL(string: "https://api.example.com/players")!,
///                                     mode: .cursor, pageSize: 50)
/// let paginator = Paginator(dataSource: players, loader: loader)
/// ```
public struct HTTPPageLoader<Item: Hashable & DataSourceComparable & Decodable>: PageLoader {
    /// The cursor: a page number, an offset, a server token or a page's URL, by mode.
    public typealias Cursor = HTTPPageCursor

    /// How pages are addressed.
    public enum Mode: Hashable, Sendable {
        /// `page` (from 1) and `limit`.
        case pageNumber
        /// `offset` (from 0) and `limit`.
        case offset
        /// An opaque `cursor` from the previous response, and `limit`.
        case cursor
        /// `limit` for the first page; then the full URL of the next page, as the previous
        /// response gives it, in the body or in a `Link` header.
        case nextURL
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
        /// The parameter of a previous page's cursor (``HTTPPageCursor/before(_:)``);
        /// `before` by default. A server whose previous-page tokens go in the same
        /// parameter as the others takes the name of ``cursor`` here.
        public var before: String

        /// Creates parameter names.
        ///
        /// - Parameters:
        ///   - page: the page number parameter; `page` by default.
        ///   - limit: the page size parameter; `limit` by default.
        ///   - offset: the offset parameter; `offset` by default.
        ///   - cursor: the cursor parameter; `cursor` by default.
        ///   - before: the parameter of a previous page's cursor; `before` by default.
        public init(page: String = "page", limit: String = "limit", offset: String = "offset", cursor: String = "cursor", before: String = "before") {
            self.page = page
            self.limit = limit
            self.offset = offset
            self.cursor = cursor
            self.before = before
        }
    }

    /// Where in a response body the loader finds the items, the next page and the totals.
    ///
    /// Each is a key path: the keys from the top of the body down, joined with `.`, as the
    /// document spells them (`"data.items"`, `"meta.paging.next"`); `""` is the body
    /// itself. A key that holds a `.` cannot be named. `nil` means the loader does not
    /// read that member.
    ///
    /// The items must be there. Any other member may be missing or `null`, and so may
    /// the objects that lead to it — except for the member the mode pages by
    /// (``nextCursor`` in cursor mode, ``totalItems`` in offset mode, ``totalPages`` in
    /// page number mode): the objects on its way must be there, so that a misspelt path
    /// fails the first page instead of quietly ending the list after it. A value of the
    /// wrong type is a decoding error wherever it is.
    ///
    /// ```swift
    /// // {"result":{"items":[…]},"meta":{"next":"c_42","total":5000}}
    /// let keys = HTTPPageLoader<Player>.ResponseKeys(items: "result.items", nextCursor: "meta.next", totalItems: "meta.total")
    /// ```
    public struct ResponseKeys: Hashable, Sendable {
        /// The array of items; `data` by default.
        public var items: String
        /// The next page's cursor, a string (``Mode/cursor``); `pagination.nextCursor` by default.
        public var nextCursor: String?
        /// The previous page's cursor, a string (``Mode/cursor``), requested with the
        /// ``ParameterNames/before`` parameter; `pagination.previousCursor` by default.
        /// Null or absent: the page starts the list. With `nil`, the loader pages
        /// forwards only.
        public var previousCursor: String?
        /// The next page's full URL, a string (``Mode/nextURL``); `next` by default. With
        /// `nil`, only the `Link` header names the next page.
        public var nextURL: String?
        /// The number of items in the whole list; `pagination.totalItems` by default.
        public var totalItems: String?
        /// The number of pages in the whole list; `pagination.totalPages` by default.
        public var totalPages: String?

        /// Creates response keys.
        ///
        /// - Parameters:
        ///   - items: the key path of the items array; `data` by default, `""` for the
        ///     body itself.
        ///   - nextCursor: the key path of the next cursor; `pagination.nextCursor` by default.
        ///   - previousCursor: the key path of the previous cursor;
        ///     `pagination.previousCursor` by default.
        ///   - nextURL: the key path of the next page's URL; `next` by default.
        ///   - totalItems: the key path of the total number of items;
        ///     `pagination.totalItems` by default.
        ///   - totalPages: the key path of the total number of pages;
        ///     `pagination.totalPages` by default.
        /// - Complexity: O(1).
        public init(
            items: String = "data",
            nextCursor: String? = "pagination.nextCursor",
            previousCursor: String? = "pagination.previousCursor",
            nextURL: String? = "next",
            totalItems: String? = "pagination.totalItems",
            totalPages: String? = "pagination.totalPages"
        ) {
            self.items = items
            self.nextCursor = nextCursor
            self.previousCursor = previousCursor
            self.nextURL = nextURL
            self.totalItems = totalItems
            self.totalPages = totalPages
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
    /// Where in a response body the items, the next page and the totals are.
    public var responseKeys: ResponseKeys
    /// How long one request may take, from sending to the last byte of the body, in real
    /// time (not on a paginator's injected clock).
    public var timeout: Duration
    /// Extra request headers, sent only to the origin (scheme, host and port) of ``url``.
    public var headers: [String: String]
    /// The session requests go through.
    public let session: URLSession
    /// The decoder for response bodies.
    public let decoder: JSONDecoder

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - url: the endpoint.
    ///   - mode: page number, offset, cursor or next-page URL.
    ///   - pageSize: rows per page, at least 1; 50 by default.
    ///   - parameterNames: the query parameter names.
    ///   - responseKeys: where in a response body the items, the next page and the
    ///     totals are; `{"data":[…],"pagination":{…}}` by default.
    ///   - timeout: the limit for one request; 30 s by default.
    ///   - headers: extra request headers, such as `Authorization`, sent only to the
    ///     origin of `url`.
    ///   - session: the session; `URLSession.shared` by default.
    ///   - decoder: the decoder for response bodies.
    public init(
        url: URL,
        mode: Mode,
        pageSize: Int = 50,
        parameterNames: ParameterNames = ParameterNames(),
        responseKeys: ResponseKeys = ResponseKeys(),
        timeout: Duration = .seconds(30),
        headers: [String: String] = [:],
        session: URLSession = .shared,
        decoder: JSONDecoder = JSONDecoder()
    ) {
        precondition(pageSize >= 1, "HTTPPageLoader needs a page size of at least 1, got \(pageSize)")
        precondition(timeout > .zero, "HTTPPageLoader needs a positive timeout")
        precondition(mode != .cursor || responseKeys.nextCursor != nil, "HTTPPageLoader in cursor mode needs the key path of the next cursor")
        self.url = url
        self.mode = mode
        self.pageSize = pageSize
        self.parameterNames = parameterNames
        self.responseKeys = responseKeys
        self.timeout = timeout
        self.headers = headers
        self.session = session
        self.decoder = decoder
    }
}

/// A position in an HTTP list: what ``HTTPPageLoader`` puts in the query, or the URL it
/// requests.
public enum HTTPPageCursor: Hashable, Sendable, CustomStringConvertible {
    /// A page number (``HTTPPageLoader/Mode/pageNumber``).
    case page(Int)
    /// A row offset (``HTTPPageLoader/Mode/offset``).
    case offset(Int)
    /// A server cursor (``HTTPPageLoader/Mode/cursor``).
    case token(String)
    /// A server cursor of a previous page (``HTTPPageLoader/Mode/cursor``), sent in the
    /// ``HTTPPageLoader/ParameterNames/before`` parameter.
    case before(String)
    /// The full URL of a page, as a response named it (``HTTPPageLoader/Mode/nextURL``).
    case url(URL)

    /// The cursor as `page N`, `offset O`, `cursor C`, `before C` or `url U`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        switch self {
        case .page(let page): "page \(page)"
        case .offset(let offset): "offset \(offset)"
        case .token(let token): "cursor \(token)"
        case .before(let token): "before \(token)"
        case .url(let url): "url \(url.absoluteString)"
        }
    }
}

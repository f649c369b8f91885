import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a page could not be loaded, and where.
///
/// Every case names what failed and, where there is one, the URL. A ``Paginator``
/// that fails keeps every row it loaded and reports the error in
/// ``PaginationState/failed(_:)``; ``RetryPolicy`` decides which errors are retried
/// automatically (by default ``isTransient`` ones).
public enum PaginationError: Error, Sendable, Hashable {
    /// The request did not complete: no connection, connection reset, DNS failure.
    case transport(url: URL?, description: String)
    /// No complete response arrived within the timeout.
    case timedOut(url: URL?)
    /// The server answered with a status code outside 200…299.
    case httpStatus(code: Int, url: URL)
    /// The response arrived but could not be decoded.
    ///
    /// `path` is the place in the document, such as `data[3].score` (empty for the
    /// top level); `description` says what is wrong and at which line, column and byte.
    case decoding(url: URL?, path: String, description: String)
    /// The load was cancelled before it finished.
    case cancelled
    /// A loader threw an error of another kind; `description` is its text.
    case other(description: String)

    /// Maps any error thrown by a loader to a pagination error.
    ///
    /// A `PaginationError` is kept as is; `CancellationError` becomes ``cancelled``; a
    /// `URLError` becomes ``cancelled``, ``timedOut(url:)`` or ``transport(url:description:)``;
    /// a ``JSONDecodingFailure`` becomes ``decoding(url:path:description:)``; so does a
    /// `DecodingError`, explained by ``JSONDecodingFailure/init(_:in:keyDecodingStrategy:)``
    /// without the document (the place its coding path names as `path`, the position
    /// unknown); anything else becomes ``other(description:)``.
    /// - Parameters:
    ///   - error: the error thrown.
    ///   - url: the URL the request was for, when known.
    public init(_ error: any Error, url: URL? = nil) {
        switch error {
        case let error as PaginationError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError:
            let failingURL = url ?? error.failingURL
            switch error.code {
            case .cancelled: self = .cancelled
            case .timedOut: self = .timedOut(url: failingURL)
            default: self = .transport(url: failingURL, description: "URL error \(error.code.rawValue): \(error.localizedDescription)")
            }
        case let error as JSONDecodingFailure:
            self = .decoding(url: url, path: error.path, description: error.positionAndReason)
        case let error as DecodingError:
            let failure = JSONDecodingFailure(error, in: nil)
            self = .decoding(url: url, path: failure.path, description: failure.positionAndReason)
        default:
            self = .other(description: String(describing: error))
        }
    }

    /// Whether the error is likely to go away when the same request is made again:
    /// transport failures, timeouts, HTTP 408, 425, 429 and 5xx, and errors of other kinds.
    /// Decoding errors, other 4xx statuses and cancellation are not.
    ///
    /// - Complexity: O(1).
    public var isTransient: Bool {
        switch self {
        case .transport, .timedOut, .other: true
        case .httpStatus(let code, _): code == 408 || code == 425 || code == 429 || (500...599).contains(code)
        case .decoding, .cancelled: false
        }
    }

    /// The URL the failed request was for, when known.
    ///
    /// - Complexity: O(1).
    public var url: URL? {
        switch self {
        case .transport(let url, _), .timedOut(let url), .decoding(let url, _, _): url
        case .httpStatus(_, let url): url
        case .cancelled, .other: nil
        }
    }
}

extension PaginationError: CustomStringConvertible {
    /// A one-line account of the error and its URL, such as
    /// `HTTP status 503 (https://example.com/players?page=2&limit=50)`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        func at(_ url: URL?) -> String { url.map { " (\($0.absoluteString))" } ?? "" }
        switch self {
        case .transport(let url, let description):
            return "transport error\(at(url)): \(description)"
        case .timedOut(let url):
            return "timed out\(at(url))"
        case .httpStatus(let code, let url):
            return "HTTP status \(code)\(at(url))"
        case .decoding(let url, let path, let description):
            return "cannot decode \(path.isEmpty ? "the top level" : path)\(at(url)): \(description)"
        case .cancelled:
            return "cancelled"
        case .other(let description):
            return description
        }
    }
}

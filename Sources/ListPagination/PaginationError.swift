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
///
/// An error a loader throws that ListPagination does not know — an app's own
/// `unauthorized`, say — becomes ``loader(_:)``, which keeps the error itself and is
/// **not** retried automatically unless the error conforms to ``TransientError`` and
/// says it is transient:
///
/// ```swift
/// enum APIError: Error { case unauthorized, overloaded }
/// extension APIError: TransientError {
///     var isTransient: Bool { self == .overloaded }
/// }
///
/// if case .failed(.loader(let failure)) = paginator.state, failure.error as? APIError == .unauthorized {
///     signIn()
/// }
/// ```
public enum PaginationError: Error, Sendable, Hashable {
    /// The request did not complete: no connection, connection reset, DNS failure.
    case transport(url: URL?, description: String)
    /// No complete response arrived within the timeout.
    case timedOut(url: URL?)
    /// The server answered with a status code outside 200…299.
    ///
    /// `body` is the start of what the server said, as ``bodyExcerpt(_:)`` makes it: one
    /// line of at most ``bodyLimit`` bytes of UTF-8, fit for a log or a status bar.
    /// `nil` when the body was empty or is not known.
    case httpStatus(code: Int, url: URL, body: String? = nil)
    /// The response arrived but could not be decoded.
    ///
    /// `path` is the place in the document, such as `data[3].score` (empty for the
    /// top level); `description` says what is wrong and at which line, column and byte.
    case decoding(url: URL?, path: String, description: String)
    /// The load was cancelled before it finished.
    case cancelled
    /// A loader threw an error of its own kind, kept in the ``LoaderFailure``.
    ///
    /// Transient only when the error conforms to ``TransientError`` and its
    /// ``TransientError/isTransient`` is `true`.
    case loader(LoaderFailure)

    /// Maps any error thrown by a loader to a pagination error.
    ///
    /// A `PaginationError` is kept as is; `CancellationError` becomes ``cancelled``; a
    /// `URLError` becomes ``cancelled``, ``timedOut(url:)`` or ``transport(url:description:)``;
    /// a ``JSONDecodingFailure`` becomes ``decoding(url:path:description:)``; so does a
    /// `DecodingError`, explained by ``JSONDecodingFailure/init(_:in:keyDecodingStrategy:)``
    /// without the document (the place its coding path names as `path`, the position
    /// unknown); a ``LoaderFailure`` becomes ``loader(_:)``, and so does anything else,
    /// wrapped in one.
    /// - Parameters:
    ///   - error: the error thrown.
    ///   - url: the URL the request was for, when known.
    /// - Complexity: O(1), plus describing the error for ``loader(_:)``; O(*n*) in the
    ///   length of a `DecodingError`'s coding path.
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
        case let failure as LoaderFailure:
            self = .loader(failure)
        default:
            self = .loader(LoaderFailure(error))
        }
    }

    /// Whether the error is likely to go away when the same request is made again:
    /// transport failures, timeouts, HTTP 408, 425, 429 and 5xx, and a loader's own
    /// error that conforms to ``TransientError`` and says so. Decoding errors, other
    /// 4xx statuses, cancellation and every other loader error are not.
    ///
    /// - Complexity: O(1).
    public var isTransient: Bool {
        switch self {
        case .transport, .timedOut: true
        case .httpStatus(let code, _, _): code == 408 || code == 425 || code == 429 || (500...599).contains(code)
        case .loader(let failure): failure.isTransient
        case .decoding, .cancelled: false
        }
    }

    /// The URL the failed request was for, when known.
    ///
    /// - Complexity: O(1).
    public var url: URL? {
        switch self {
        case .transport(let url, _), .timedOut(let url), .decoding(let url, _, _): url
        case .httpStatus(_, let url, _): url
        case .cancelled, .loader: nil
        }
    }
}

extension PaginationError: CustomStringConvertible {
    /// A one-line account of the error and its URL, such as
    /// `HTTP status 503 (https://example.com/players?page=2&limit=50): {"error":"busy"}`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        func at(_ url: URL?) -> String { url.map { " (\($0.absoluteString))" } ?? "" }
        switch self {
        case .transport(let url, let description):
            return "transport error\(at(url)): \(description)"
        case .timedOut(let url):
            return "timed out\(at(url))"
        case .httpStatus(let code, let url, let body):
            return "HTTP status \(code)\(at(url))" + (body.map { ": \($0)" } ?? "")
        case .decoding(let url, let path, let description):
            return "cannot decode \(path.isEmpty ? "the top level" : path)\(at(url)): \(description)"
        case .cancelled:
            return "cancelled"
        case .loader(let failure):
            return failure.description
        }
    }
}

/// An error that says whether the same request may succeed when it is made again.
///
/// Conform a loader's own error type to it to have ``RetryPolicy/default`` retry the
/// transient ones. An error a loader throws that does not conform (and is not a
/// ``PaginationError``, `URLError`, `CancellationError` or decoding error) is not
/// retried automatically: an app's `unauthorized` fails at once, and
/// ``Paginator/retry()`` still tries again when the user asks.
///
/// ```swift
/// struct RateLimited: TransientError {}        // transient: the default is `true`
///
/// enum APIError: TransientError {
///     case unauthorized, overloaded
///     var isTransient: Bool { self == .overloaded }
/// }
/// ```
public protocol TransientError: Error {
    /// Whether the same request may succeed when it is made again. `true` unless the
    /// conforming type says otherwise.
    var isTransient: Bool { get }
}

extension TransientError {
    /// `true`: an error that conforms to ``TransientError`` without saying more is transient.
    ///
    /// - Complexity: O(1).
    public var isTransient: Bool { true }
}

/// An error a loader threw that is not one of ListPagination's own, with what a
/// ``RetryPolicy`` needs to know about it.
///
/// ``PaginationError/loader(_:)`` carries it. The error itself is ``error``, so an app
/// can react to its own errors:
///
/// ```swift
/// if case .failed(.loader(let failure)) = paginator.state, let error = failure.error as? APIError {
///     handle(error)
/// }
/// ```
///
/// Two failures are equal when their ``typeName``, ``description`` and ``isTransient``
/// are; ``error`` itself need not be `Equatable`.
public struct LoaderFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error the loader threw.
    public let error: any Error
    /// The name of the error's type, such as `APIError`.
    public let typeName: String
    /// The error's text, `String(describing: error)`.
    public let description: String
    /// Whether the error is transient: its ``TransientError/isTransient`` when it conforms
    /// to ``TransientError``, otherwise `false`.
    public let isTransient: Bool

    /// Wraps `error`.
    ///
    /// - Parameter error: the error a loader threw.
    /// - Complexity: O(length of the error's description).
    public init(_ error: any Error) {
        self.error = error
        typeName = String(describing: type(of: error))
        description = String(describing: error)
        isTransient = (error as? any TransientError)?.isTransient ?? false
    }

    /// Whether two failures have the same type name, description and transience.
    ///
    /// - Parameters:
    ///   - lhs: a failure.
    ///   - rhs: another failure.
    /// - Returns: whether ``typeName``, ``description`` and ``isTransient`` are equal.
    /// - Complexity: O(length of the descriptions).
    public static func == (lhs: LoaderFailure, rhs: LoaderFailure) -> Bool {
        lhs.typeName == rhs.typeName && lhs.description == rhs.description && lhs.isTransient == rhs.isTransient
    }

    /// Hashes the type name, description and transience.
    ///
    /// - Parameter hasher: the hasher to feed.
    /// - Complexity: O(length of the description).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeName)
        hasher.combine(description)
        hasher.combine(isTransient)
    }
}

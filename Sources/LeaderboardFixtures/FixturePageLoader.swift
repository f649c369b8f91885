import Foundation
import ListPagination

/// Serves the leaderboard fixture pages from disk, as a server would, with a simulated
/// latency and a switch that makes the next loads fail.
///
/// In ``Mode/pageNumber`` mode it reads `leaderboard/pages/page-NNN.json` and stops
/// after `totalPages`; in ``Mode/cursor`` mode it follows `nextCursor` through
/// `leaderboard/cursor/`. The latency is slept on the given clock, so a test with a
/// `ManualClock` decides when a page arrives.
///
/// ```swift
/// let loader = FixturePageLoader(directory: try .locate(), latency: .milliseconds(400))
/// let paginator = Paginator(dataSource: board, loader: loader)
/// // Fail every attempt at the next page, retries included, so that the paginator
/// // reports `failed` (a single failure is retried automatically).
/// loader.failNextLoads(paginator.retryPolicy.maxAttempts)
/// ```
public final class FixturePageLoader<C: Clock>: PageLoader, Sendable where C.Duration == Duration {
    /// The rows the pages hold: leaderboard players.
    public typealias Item = Player
    /// What names a page: a page number or a cursor token, by ``Mode``.
    public typealias Cursor = FixtureCursor

    /// Which fixture files are served.
    public enum Mode: Hashable, Sendable {
        /// `pages/page-NNN.json`, cursor ``FixtureCursor/page(_:)``.
        case pageNumber
        /// `cursor/first.json` and `cursor/<token>.json`, cursor ``FixtureCursor/token(_:)``.
        case cursor
    }

    /// The fixtures served.
    public let directory: FixtureDirectory
    /// Which files are served.
    public let mode: Mode
    /// How long each load takes, on ``clock``.
    public let latency: Duration
    /// The clock the latency is slept on.
    public let clock: C

    private let shared = LockedState(Shared())

    private struct Shared {
        var failuresPending = 0
        var failure: PaginationError = .transport(url: nil, description: "simulated failure")
        var requests: [FixtureCursor?] = []
    }

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - directory: the fixtures.
    ///   - mode: page number or cursor files.
    ///   - latency: how long each load takes; zero by default.
    ///   - clock: the clock the latency is slept on.
    public init(directory: FixtureDirectory, mode: Mode = .pageNumber, latency: Duration = .zero, clock: C) {
        precondition(latency >= .zero, "FixturePageLoader latency must not be negative")
        self.directory = directory
        self.mode = mode
        self.latency = latency
        self.clock = clock
    }

    /// Makes the next `count` loads fail with `error` (after the latency).
    ///
    /// - Parameters:
    ///   - count: how many loads fail; 1 by default.
    ///   - error: the error they throw; a transport error by default.
    /// - Complexity: O(1). A later call replaces the count and the error.
    public func failNextLoads(_ count: Int = 1, with error: PaginationError = .transport(url: nil, description: "simulated failure")) {
        precondition(count >= 0, "failNextLoads needs a count of at least 0, got \(count)")
        shared.withLock {
            $0.failuresPending = count
            $0.failure = error
        }
    }

    /// Every cursor loaded so far, in order (`nil` for the first page).
    ///
    /// - Complexity: O(*r*) to copy, for *r* loads so far.
    public var requestedCursors: [FixtureCursor?] { shared.withLock { $0.requests } }

    /// Loads the page at `cursor` after the latency.
    ///
    /// - Parameter cursor: the page to load (``FixtureCursor/page(_:)`` in page number
    ///   mode, ``FixtureCursor/token(_:)`` in cursor mode); `nil` for the first page.
    /// - Returns: the file's players and the cursor of the next page; `nil` after page
    ///   `totalPages`, or when the cursor file has no `nextCursor`.
    /// - Throws: the injected failure, `PaginationError.cancelled` when cancelled while
    ///   waiting, `PaginationError.decoding(url:path:description:)` for a broken file,
    ///   or `PaginationError.transport(url:description:)` naming a file that cannot be read.
    /// - Precondition: the cursor matches the mode.
    /// - Complexity: ``latency`` on ``clock``, then O(*b*) to read and decode a file of
    ///   *b* bytes.
    public func loadPage(at cursor: FixtureCursor?) async throws -> Page<Player, FixtureCursor> {
        let failure: PaginationError? = shared.withLock { state in
            state.requests.append(cursor)
            guard state.failuresPending > 0 else { return nil }
            state.failuresPending -= 1
            return state.failure
        }
        if latency > .zero {
            do {
                try await clock.sleep(for: latency)
            } catch {
                throw PaginationError.cancelled
            }
        }
        if let failure { throw failure }
        do {
            return try readPage(at: cursor)
        } catch {
            throw Self.paginationError(for: error)
        }
    }

    private func readPage(at cursor: FixtureCursor?) throws(FixtureError) -> Page<Player, FixtureCursor> {
        switch (mode, cursor) {
        case (.pageNumber, nil):
            return try readNumberedPage(1)
        case (.pageNumber, .page(let number)?):
            return try readNumberedPage(number)
        case (.cursor, nil):
            return try readCursorPage(after: nil)
        case (.cursor, .token(let token)?):
            return try readCursorPage(after: token)
        case (_, let cursor?):
            preconditionFailure("FixturePageLoader in \(mode) mode was given \(cursor)")
        }
    }

    private func readNumberedPage(_ number: Int) throws(FixtureError) -> Page<Player, FixtureCursor> {
        let page = try directory.loadPage(number)
        let next = page.pagination.page < page.pagination.totalPages ? FixtureCursor.page(page.pagination.page + 1) : nil
        return Page(items: page.data, nextCursor: next)
    }

    private func readCursorPage(after token: String?) throws(FixtureError) -> Page<Player, FixtureCursor> {
        let page = try directory.loadCursorPage(after: token)
        return Page(items: page.data, nextCursor: page.pagination.nextCursor.map { .token($0) })
    }

    private static func paginationError(for error: FixtureError) -> PaginationError {
        switch error {
        case .malformed(let path, let failure):
            .decoding(url: URL(fileURLWithPath: path), path: failure.path, description: failure.positionAndReason)
        default:
            .transport(url: error.path.map { URL(fileURLWithPath: $0) }, description: error.description)
        }
    }
}

extension FixturePageLoader where C == ContinuousClock {
    /// Creates a loader whose latency is real time.
    ///
    /// - Parameters:
    ///   - directory: the fixtures.
    ///   - mode: page number or cursor files.
    ///   - latency: how long each load takes; zero by default.
    public convenience init(directory: FixtureDirectory, mode: Mode = .pageNumber, latency: Duration = .zero) {
        self.init(directory: directory, mode: mode, latency: latency, clock: ContinuousClock())
    }
}

/// A position in the fixture pages.
public enum FixtureCursor: Hashable, Sendable {
    /// A page number, from 1.
    case page(Int)
    /// A cursor token from a cursor page.
    case token(String)
}

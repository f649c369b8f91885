import Foundation
import ListPagination

/// Serves the leaderboard fixture pages from disk, as a server would, with a simulated
/// latency and a switch that makes the next loads fail.
///
/// In ``Mode/pageNumber`` mode it reads `leaderboard/pages/page-NNN.json` and stops
/// after `totalPages`; in ``Mode/cursor`` mode it follows `nextCursor` through
/// `leaderboard/cursor/`. The latency is slept on the given clock, so a test with a
/// ``ManualClock`` decides when a page arrives.
///
/// ```swift
/// let loader = FixturePageLoader(directory: try .locate(), latency: .milliseconds(400))
/// let paginator = Paginator(dataSource: board, loader: loader)
/// loader.failNextLoads()        // the demo's `f` key
/// ```
public final class FixturePageLoader<C: Clock>: PageLoader, Sendable where C.Duration == Duration {
    public typealias Item = Player
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
    public func failNextLoads(_ count: Int = 1, with error: PaginationError = .transport(url: nil, description: "simulated failure")) {
        precondition(count >= 0, "failNextLoads needs a count of at least 0, got \(count)")
        shared.withLock {
            $0.failuresPending = count
            $0.failure = error
        }
    }

    /// Every cursor loaded so far, in order (`nil` for the first page).
    public var requestedCursors: [FixtureCursor?] { shared.withLock { $0.requests } }

    /// Loads the page at `cursor` after the latency.
    ///
    /// - Throws: the injected failure, ``PaginationError/cancelled`` when cancelled while
    ///   waiting, or ``PaginationError/decoding(url:path:description:)`` for a broken file.
    /// - Precondition: the cursor matches the mode.
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

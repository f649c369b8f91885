@testable import ListPagination
import Testing

/// The state machine, driven one event at a time.
@Suite struct PaginationStateMachineTests {
    typealias Machine = _PaginationStateMachine<Int>

    static let noRetry = RetryPolicy.none
    static let threeAttempts = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)

    static func machine(retry: RetryPolicy = noRetry, prefetch: Int = 5, immediateIndicator: Bool = false) -> Machine {
        Machine(retryPolicy: retry, prefetchDistance: prefetch, showsIndicatorImmediately: immediateIndicator)
    }

    /// The request a `startLoad` action carries; records an issue otherwise.
    static func started(_ action: Machine.Action, sourceLocation: SourceLocation = #_sourceLocation) -> Machine.Request? {
        guard case .startLoad(let request, _) = action else {
            Issue.record("expected startLoad, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        return request
    }

    @Test func firstLoadAsksForTheFirstPageOnce() throws {
        var machine = Self.machine()
        #expect(machine.status == PaginationStatus(state: .idle))
        let action = machine.loadRequested()
        let request = try #require(Self.started(action))
        #expect(request.cursor == nil)
        #expect(request.mode == .append)
        guard case .startLoad(_, let episode) = action else { return }
        #expect(episode == 1)
        #expect(machine.status.state == .loading)
        for _ in 0..<3 { #expect(machine.loadRequested() == .none) }
    }

    @Test func pagesAdvanceTheCursorUntilTheLastPage() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        #expect(machine.pageLoaded(first.token, nextCursor: 2) == .applyPage(.append))
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 1))
        let second = try #require(Self.started(machine.loadRequested()))
        #expect(second.cursor == 2)
        #expect(second.token != first.token)
        #expect(machine.pageLoaded(second.token, nextCursor: nil) == .applyPage(.append))
        #expect(machine.status == PaginationStatus(state: .exhausted, loadedPages: 2))
        #expect(machine.loadRequested() == .none)
        #expect(machine.itemAppeared(at: 0, count: 1) == .none)
        #expect(machine.retryRequested() == .none)
    }

    @Test func aResponseForAnotherTokenIsDiscarded() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        let bogus = Machine.Token(generation: first.token.generation, sequence: first.token.sequence + 7)
        #expect(machine.pageLoaded(bogus, nextCursor: 2) == .none)
        #expect(machine.pageFailed(bogus, error: .cancelled) == .none)
        #expect(machine.backoffElapsed(first.token) == .none)
        #expect(machine.status.state == .loading)
        #expect(machine.pageLoaded(first.token, nextCursor: 2) == .applyPage(.append))
        // The same response twice: the second is stale.
        #expect(machine.pageLoaded(first.token, nextCursor: 2) == .none)
        #expect(machine.status.loadedPages == 1)
    }

    @Test func failureWithoutRetriesFailsAndRetryReissuesTheSameCursor() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 2)
        let second = try #require(Self.started(machine.loadRequested()))
        let error = PaginationError.httpStatus(code: 500, url: URL(string: "http://x/pages?page=2")!)
        #expect(machine.pageFailed(second.token, error: error) == .fail(error))
        #expect(machine.status == PaginationStatus(state: .failed(error), loadedPages: 1, failedAttempts: 1))
        // Scrolling does not retry a failed page.
        #expect(machine.itemAppeared(at: 49, count: 50) == .none)
        let retried = try #require(Self.started(machine.retryRequested()))
        #expect(retried.cursor == 2)
        #expect(retried.token != second.token)
        // A late answer to the failed request is stale.
        #expect(machine.pageLoaded(second.token, nextCursor: 3) == .none)
        #expect(machine.pageLoaded(retried.token, nextCursor: 3) == .applyPage(.append))
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 2))
    }

    @Test func loadRequestedWhileFailedLoadsTheFailedCursorAgain() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 7)
        let second = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageFailed(second.token, error: .timedOut(url: nil))
        let again = try #require(Self.started(machine.loadRequested()))
        #expect(again.cursor == 7)
    }

    @Test func transientFailuresBackOffExponentiallyThenFail() throws {
        var machine = Self.machine(retry: Self.threeAttempts)
        let first = try #require(Self.started(machine.loadRequested()))
        let error = PaginationError.transport(url: nil, description: "reset")
        #expect(machine.pageFailed(first.token, error: error) == .scheduleRetry(first.token, delay: .seconds(1)))
        #expect(machine.status == PaginationStatus(state: .loading, loadedPages: 0, failedAttempts: 1))
        #expect(machine.isBackingOff)
        // Nothing new starts while backing off.
        #expect(machine.loadRequested() == .none)
        #expect(machine.itemAppeared(at: 0, count: 0) == .none)
        let second = try #require(Self.started(machine.backoffElapsed(first.token)))
        #expect(second.cursor == nil)
        #expect(machine.backoffElapsed(first.token) == .none)
        #expect(machine.pageFailed(second.token, error: error) == .scheduleRetry(second.token, delay: .seconds(2)))
        let third = try #require(Self.started(machine.backoffElapsed(second.token)))
        #expect(machine.pageFailed(third.token, error: error) == .fail(error))
        #expect(machine.status == PaginationStatus(state: .failed(error), failedAttempts: 3))
        // A manual retry starts a new series of attempts.
        let fourth = try #require(Self.started(machine.retryRequested()))
        #expect(machine.status.failedAttempts == 0)
        #expect(machine.pageFailed(fourth.token, error: error) == .scheduleRetry(fourth.token, delay: .seconds(1)))
    }

    @Test func retryDuringBackoffSkipsTheDelay() throws {
        var machine = Self.machine(retry: Self.threeAttempts)
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageFailed(first.token, error: .timedOut(url: nil))
        let action = machine.retryRequested()
        let second = try #require(Self.started(action))
        #expect(action == .startLoad(second, indicatorEpisode: nil))  // same episode
        #expect(machine.backoffElapsed(first.token) == .none)
        #expect(machine.status.failedAttempts == 1)
    }

    @Test(arguments: [
        PaginationError.decoding(url: nil, path: "data[3].score", description: "expected Int"),
        .httpStatus(code: 404, url: URL(string: "http://x/")!),
        .cancelled,
    ])
    func permanentErrorsAreNotRetried(error: PaginationError) throws {
        var machine = Self.machine(retry: Self.threeAttempts)
        let first = try #require(Self.started(machine.loadRequested()))
        #expect(machine.pageFailed(first.token, error: error) == .fail(error))
        #expect(machine.status.state == .failed(error))
    }

    @Test func refreshSupersedesTheLoadInFlightAndReplaces() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 2)
        let second = try #require(Self.started(machine.loadRequested()))
        let refreshAction = machine.refreshRequested()
        let refresh = try #require(Self.started(refreshAction))
        #expect(refresh.cursor == nil)
        #expect(refresh.mode == .replace)
        #expect(refresh.token.generation == second.token.generation + 1)
        #expect(refreshAction == .startLoad(refresh, indicatorEpisode: nil))  // the episode goes on
        #expect(machine.status.isRefreshing)
        // A second refresh while one runs is ignored; so is loading more.
        #expect(machine.refreshRequested() == .none)
        #expect(machine.loadRequested() == .none)
        // The old page arrives late (before or after the refresh's): discarded.
        #expect(machine.pageLoaded(second.token, nextCursor: 3) == .none)
        #expect(machine.pageLoaded(refresh.token, nextCursor: 2) == .applyPage(.replace))
        #expect(machine.pageLoaded(second.token, nextCursor: 3) == .none)
        #expect(machine.pageFailed(second.token, error: .cancelled) == .none)
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 1))
        let next = try #require(Self.started(machine.loadRequested()))
        #expect(next.cursor == 2)
        #expect(next.mode == .append)
    }

    @Test func refreshFromExhaustedOrFailedStartsANewEpisode() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: nil)
        let refreshAction = machine.refreshRequested()
        let refresh = try #require(Self.started(refreshAction))
        #expect(refreshAction == .startLoad(refresh, indicatorEpisode: 2))
        _ = machine.pageFailed(refresh.token, error: .timedOut(url: nil))
        #expect(machine.status.state == .failed(.timedOut(url: nil)))
        // Retrying a failed refresh is again a refresh.
        let retried = try #require(Self.started(machine.retryRequested()))
        #expect(retried.mode == .replace)
        #expect(retried.cursor == nil)
        #expect(machine.pageLoaded(retried.token, nextCursor: 2) == .applyPage(.replace))
    }

    @Test func resetForgetsEverythingAndDiscardsLateResponses() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 2)
        let second = try #require(Self.started(machine.loadRequested()))
        #expect(machine.resetRequested() == .reset)
        #expect(machine.status == PaginationStatus(state: .idle))
        #expect(machine.pageLoaded(second.token, nextCursor: 3) == .none)
        let again = try #require(Self.started(machine.loadRequested()))
        #expect(again.cursor == nil)
        #expect(again.token.generation == second.token.generation + 1)
    }

    @Test func resetFromExhaustedAllowsLoadingAgain() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: nil)
        #expect(machine.resetRequested() == .reset)
        let again = try #require(Self.started(machine.loadRequested()))
        #expect(again.cursor == nil)
    }

    /// Loads pages from idle, the first with `nil` and each next with the cursor the
    /// previous page named, and returns the cursors requested.
    static func load(_ machine: inout Machine, successors: [Int?]) throws -> [Int?] {
        var requested: [Int?] = []
        for next in successors {
            let request = try #require(started(machine.loadRequested()))
            requested.append(request.cursor)
            #expect(machine.pageLoaded(request.token, nextCursor: next) == .applyPage(.append))
        }
        return requested
    }

    @Test func aSuccessorNamedAgainEndsTheList() throws {
        // A server that answers page 2 with "next: 2" again.
        var repeating = Self.machine()
        #expect(try Self.load(&repeating, successors: [2, 2]) == [nil, 2])
        #expect(repeating.status == PaginationStatus(state: .exhausted, loadedPages: 2))
        #expect(repeating.loadRequested() == .none)
        // A longer cycle: 2 → 3 → 4 → 2.
        var cycling = Self.machine()
        #expect(try Self.load(&cycling, successors: [2, 3, 4, 2]) == [nil, 2, 3, 4])
        #expect(cycling.status == PaginationStatus(state: .exhausted, loadedPages: 4))
        #expect(cycling.itemAppeared(at: 0, count: 1) == .none)
    }

    @Test func refreshAndResetForgetTheCursorsNamedBefore() throws {
        var machine = Self.machine()
        _ = try Self.load(&machine, successors: [2, 3, nil])
        #expect(machine.status.state == .exhausted)
        let refresh = try #require(Self.started(machine.refreshRequested()))
        #expect(machine.pageLoaded(refresh.token, nextCursor: 2) == .applyPage(.replace))
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 1))
        #expect(try Self.load(&machine, successors: [3, nil]) == [2, 3])
        #expect(machine.status == PaginationStatus(state: .exhausted, loadedPages: 3))
        #expect(machine.resetRequested() == .reset)
        #expect(try Self.load(&machine, successors: [2, 3]) == [nil, 2])
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 2))
    }

    @Test func cursorsThatAreNotHashableAreNeverTakenForRepeats() throws {
        struct Opaque: Sendable { let page: Int }
        var machine = _PaginationStateMachine<Opaque>(retryPolicy: .none, prefetchDistance: 5, showsIndicatorImmediately: false)
        for _ in 0..<3 {
            guard case .startLoad(let request, _) = machine.loadRequested() else {
                Issue.record("no load started")
                return
            }
            _ = machine.pageLoaded(request.token, nextCursor: Opaque(page: 2))
            #expect(machine.status.state == .idle)
        }
    }

    @Test func prefetchTriggersWithinTheDistanceOfTheEnd() throws {
        var machine = Self.machine(prefetch: 5)
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 2)
        // Rows 14…19 have at most five rows after them.
        for offset in 0..<14 {
            #expect(machine.itemAppeared(at: offset, count: 20) == .none, "offset \(offset)")
        }
        let next = try #require(Self.started(machine.itemAppeared(at: 14, count: 20)))
        #expect(next.cursor == 2)
        #expect(machine.itemAppeared(at: 19, count: 20) == .none)
    }

    @Test func prefetchDistanceZeroTriggersAtTheLastRow() throws {
        var machine = Self.machine(prefetch: 0)
        for offset in 0..<9 {
            #expect(machine.itemAppeared(at: offset, count: 10) == .none, "offset \(offset)")
        }
        #expect(Self.started(machine.itemAppeared(at: 9, count: 10)) != nil)
    }

    @Test func indicatorShowsOnlyWhenTheDelayElapsesDuringTheLoad() throws {
        var machine = Self.machine()
        let action = machine.loadRequested()
        guard case .startLoad(let first, let episode?) = action else {
            Issue.record("expected a new episode, got \(action)")
            return
        }
        #expect(!machine.status.isShowingLoadingIndicator)
        #expect(machine.indicatorDelayElapsed(episode + 1) == .none)
        #expect(machine.indicatorDelayElapsed(episode) == .showIndicator)
        #expect(machine.status.isShowingLoadingIndicator)
        #expect(machine.indicatorDelayElapsed(episode) == .none)
        _ = machine.pageLoaded(first.token, nextCursor: 2)
        #expect(!machine.status.isShowingLoadingIndicator)
        // A timer of a finished episode never turns it on.
        guard case .startLoad(let second, let nextEpisode?) = machine.loadRequested() else {
            Issue.record("expected a new episode")
            return
        }
        #expect(nextEpisode == episode + 1)
        _ = machine.pageLoaded(second.token, nextCursor: 3)
        #expect(machine.indicatorDelayElapsed(nextEpisode) == .none)
        #expect(!machine.status.isShowingLoadingIndicator)
    }

    @Test func indicatorStaysOnThroughAutomaticRetriesAndOffOnFailure() throws {
        var machine = Self.machine(retry: Self.threeAttempts)
        guard case .startLoad(let first, let episode?) = machine.loadRequested() else {
            Issue.record("expected a new episode")
            return
        }
        _ = machine.indicatorDelayElapsed(episode)
        _ = machine.pageFailed(first.token, error: .timedOut(url: nil))
        #expect(machine.status.isShowingLoadingIndicator)
        let second = try #require(Self.started(machine.backoffElapsed(first.token)))
        #expect(machine.status.isShowingLoadingIndicator)
        _ = machine.pageFailed(second.token, error: .decoding(url: nil, path: "", description: "bad"))
        #expect(!machine.status.isShowingLoadingIndicator)
        #expect(machine.indicatorDelayElapsed(episode) == .none)
    }

    @Test func zeroDelayShowsTheIndicatorAtOnce() throws {
        var machine = Self.machine(immediateIndicator: true)
        let action = machine.loadRequested()
        let first = try #require(Self.started(action))
        #expect(action == .startLoad(first, indicatorEpisode: nil))
        #expect(machine.status.isShowingLoadingIndicator)
        _ = machine.pageLoaded(first.token, nextCursor: nil)
        #expect(!machine.status.isShowingLoadingIndicator)
    }

    @Test func jitterShortensTheBackoff() throws {
        var machine = Self.machine(retry: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(10), jitter: 0.5))
        let first = try #require(Self.started(machine.loadRequested()))
        #expect(machine.pageFailed(first.token, error: .timedOut(url: nil), randomUnit: 0.5) == .scheduleRetry(first.token, delay: .seconds(7.5)))
    }

    @Test func totalsFollowTheLatestPageThatGivesThemUntilARefreshOrReset() throws {
        var machine = Self.machine()
        let first = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(first.token, nextCursor: 2, totalItems: 100, totalPages: 10)
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 1, totalItems: 100, totalPages: 10))
        // A page that does not say keeps what is known; one that says replaces it.
        let second = try #require(Self.started(machine.loadRequested()))
        #expect(machine.status.totalItems == 100, "a load in flight shows the totals too")
        _ = machine.pageLoaded(second.token, nextCursor: 3)
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 2, totalItems: 100, totalPages: 10))
        let third = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageFailed(third.token, error: .timedOut(url: nil))
        #expect(machine.status.totalItems == 100 && machine.status.totalPages == 10)
        let retried = try #require(Self.started(machine.retryRequested()))
        _ = machine.pageLoaded(retried.token, nextCursor: 4, totalItems: 104)
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 3, totalItems: 104, totalPages: 10))
        // A refresh takes the first page's word, even when it says nothing.
        let refresh = try #require(Self.started(machine.refreshRequested()))
        _ = machine.pageLoaded(refresh.token, nextCursor: 2, totalPages: 11)
        #expect(machine.status == PaginationStatus(state: .idle, loadedPages: 1, totalPages: 11))
        _ = machine.resetRequested()
        #expect(machine.status == PaginationStatus(state: .idle))
    }
}

import struct Foundation.URL

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

    // MARK: Both directions and windows

    static func bounds(_ rows: ClosedRange<Int>) -> _PageBounds {
        _PageBounds(first: _RowBound(rows.lowerBound), last: _RowBound(rows.upperBound))
    }

    /// A machine that jumped to page 5 of rows 50…59, with pages 4 and 6 around it.
    static func jumped(retry: RetryPolicy = noRetry, prefetch: Int = 5) throws -> Machine {
        var machine = Self.machine(retry: retry, prefetch: prefetch)
        let jump = try #require(started(machine.jumpRequested(to: 5)))
        #expect(jump.cursor == 5 && jump.mode == .jump)
        #expect(machine.pageLoaded(jump.token, nextCursor: 6, previousCursor: 4, bounds: bounds(50...59)) == .applyPage(.jump))
        return machine
    }

    @Test func previousPagesLoadUntilTheStartOfTheList() throws {
        var machine = Self.machine()
        #expect(machine.loadPreviousRequested() == .none, "nothing is loaded: there is no page before")
        machine = try Self.jumped()
        #expect(machine.status == PaginationStatus(state: .idle, prepend: .idle, loadedPages: 1))
        let fourth = try #require(Self.started(machine.loadPreviousRequested()))
        #expect(fourth.cursor == 4 && fourth.mode == .prepend)
        #expect(machine.status.prepend == .loading && machine.status.append == .idle)
        #expect(machine.loadPreviousRequested() == .none, "one request per direction")
        #expect(machine.pageLoaded(fourth.token, nextCursor: 5, previousCursor: 3, bounds: Self.bounds(40...49)) == .applyPage(.prepend))
        let third = try #require(Self.started(machine.loadPreviousRequested()))
        #expect(third.cursor == 3)
        #expect(machine.pageLoaded(third.token, nextCursor: 4, previousCursor: nil, bounds: Self.bounds(30...39)) == .applyPage(.prepend))
        #expect(machine.status == PaginationStatus(state: .idle, prepend: .exhausted, loadedPages: 3))
        #expect(machine.loadPreviousRequested() == .none)
        #expect(machine.window == Machine.Window(lower: .open, upper: .inclusive(_RowBound(59))))
        #expect(machine.ledger.map(\.cursor) == [3, 4, 5])
    }

    @Test func aFailureInOneDirectionLeavesTheOtherWorkingAndRetryRetriesOnlyIt() throws {
        var machine = try Self.jumped()
        let next = try #require(Self.started(machine.loadRequested()))
        let previous = try #require(Self.started(machine.loadPreviousRequested()))
        #expect(next.token != previous.token)
        #expect(machine.pageFailed(previous.token, error: .timedOut(url: nil)) == .fail(.timedOut(url: nil)))
        #expect(machine.status == PaginationStatus(state: .loading, prepend: .failed(.timedOut(url: nil)), loadedPages: 1, prependFailedAttempts: 1))
        // Scrolling to the top does not retry it; the other direction goes on.
        #expect(machine.itemAppeared(at: 0, count: 10) == .none)
        #expect(machine.pageLoaded(next.token, nextCursor: 7, previousCursor: 5, bounds: Self.bounds(60...69)) == .applyPage(.append))
        #expect(machine.status.append == .idle)
        let retried = try #require(Self.started(machine.retryRequested()))
        #expect(retried.cursor == 4 && retried.mode == .prepend)
        #expect(machine.retryRequested() == .none)
    }

    @Test func retryRetriesEveryFailedDirection() throws {
        var machine = try Self.jumped()
        let next = try #require(Self.started(machine.loadRequested()))
        let previous = try #require(Self.started(machine.loadPreviousRequested()))
        _ = machine.pageFailed(next.token, error: .timedOut(url: nil))
        _ = machine.pageFailed(previous.token, error: .timedOut(url: nil))
        guard case .actions(let actions) = machine.retryRequested(), actions.count == 2 else {
            Issue.record("expected two loads")
            return
        }
        let requests = actions.compactMap { Self.started($0) }
        #expect(requests.map(\.cursor) == [6, 4])
        #expect(requests.map(\.mode) == [.append, .prepend])
        guard case .startLoad(_, let episode) = actions[0], case .startLoad(_, let second) = actions[1] else { return }
        #expect(episode != nil && second == nil, "one loading episode for both")
    }

    @Test func eachDirectionBacksOffOnItsOwn() throws {
        var machine = try Self.jumped(retry: Self.threeAttempts)
        let next = try #require(Self.started(machine.loadRequested()))
        let previous = try #require(Self.started(machine.loadPreviousRequested()))
        let error = PaginationError.transport(url: nil, description: "reset")
        #expect(machine.pageFailed(previous.token, error: error) == .scheduleRetry(previous.token, delay: .seconds(1)))
        #expect(machine.slot(of: previous.token) == .prepend)
        #expect(machine.status.prependFailedAttempts == 1 && machine.status.failedAttempts == 0)
        #expect(machine.pageFailed(next.token, error: error) == .scheduleRetry(next.token, delay: .seconds(1)))
        let again = try #require(Self.started(machine.backoffElapsed(previous.token)))
        #expect(again.mode == .prepend && again.cursor == 4)
        #expect(machine.status.append == .loading)
        #expect(machine.pageFailed(again.token, error: error) == .scheduleRetry(again.token, delay: .seconds(2)))
        #expect(machine.status.prependFailedAttempts == 2 && machine.status.failedAttempts == 1)
    }

    @Test func aVisibleRowNearBothEndsLoadsBothWays() throws {
        var machine = try Self.jumped(prefetch: 5)
        let onlyNext = try #require(Self.started(machine.itemAppeared(at: 6, count: 10)), "six rows before, three after")
        #expect(onlyNext.mode == .append)
        machine = try Self.jumped(prefetch: 5)
        let onlyPrevious = try #require(Self.started(machine.itemAppeared(at: 2, count: 20)))
        #expect(onlyPrevious.mode == .prepend)
        machine = try Self.jumped(prefetch: 5)
        guard case .actions(let both) = machine.itemAppeared(at: 4, count: 8) else {
            Issue.record("expected loads in both directions")
            return
        }
        #expect(both.compactMap { Self.started($0)?.mode } == [.append, .prepend])
        #expect(machine.itemAppeared(at: 4, count: 8) == .none)
    }

    @Test func aJumpSupersedesEverythingAndTheLatestJumpWins() throws {
        var machine = try Self.jumped()
        let next = try #require(Self.started(machine.loadRequested()))
        let first = try #require(Self.started(machine.jumpRequested(to: 20)))
        #expect(first.token.generation == next.token.generation + 1)
        #expect(machine.status.append == .loading && machine.status.prepend == .loading && !machine.status.isRefreshing)
        #expect(machine.loadRequested() == .none && machine.loadPreviousRequested() == .none)
        let second = try #require(Self.started(machine.jumpRequested(to: 30)))
        #expect(machine.pageLoaded(next.token, nextCursor: 7) == .none)
        #expect(machine.pageLoaded(first.token, nextCursor: 21) == .none)
        // A refresh supersedes a jump, and a jump a refresh.
        let refresh = try #require(Self.started(machine.refreshRequested()))
        #expect(machine.pageLoaded(second.token, nextCursor: 31) == .none)
        let third = try #require(Self.started(machine.jumpRequested(to: 40)))
        #expect(machine.pageLoaded(refresh.token, nextCursor: 1) == .none)
        #expect(machine.pageLoaded(third.token, nextCursor: 41, previousCursor: 39, bounds: Self.bounds(400...409)) == .applyPage(.jump))
        #expect(machine.status == PaginationStatus(state: .idle, prepend: .idle, loadedPages: 1))
        #expect(machine.ledger.map(\.cursor) == [40])
        #expect(machine.window == Machine.Window(lower: .inclusive(_RowBound(400)), upper: .inclusive(_RowBound(409))))
        #expect(try #require(Self.started(machine.loadPreviousRequested())).cursor == 39)
    }

    @Test func aJumpPastAnEndGoesOnOnceToThePageBeforeOrTheFirstPage() throws {
        var machine = try Self.jumped()
        let past = try #require(Self.started(machine.jumpRequested(to: 90)))
        let before = try #require(Self.started(machine.pageLoaded(past.token, nextCursor: nil, previousCursor: 89)))
        #expect(before.cursor == 89 && before.mode == .jump)
        #expect(machine.status.append == .loading && machine.ledger.map(\.cursor) == [5], "the empty page is not applied")
        #expect(machine.pageLoaded(before.token, nextCursor: nil, previousCursor: 88, bounds: Self.bounds(890...899)) == .applyPage(.jump))
        #expect(machine.status == PaginationStatus(state: .exhausted, prepend: .idle, loadedPages: 1))
        // Before the start: on to the first page; an empty first page is the list.
        let early = try #require(Self.started(machine.jumpRequested(to: -3)))
        let first = try #require(Self.started(machine.pageLoaded(early.token, nextCursor: nil, previousCursor: nil)))
        #expect(first.cursor == nil)
        #expect(machine.pageLoaded(first.token, nextCursor: nil, previousCursor: 7) == .applyPage(.jump), "once only")
        #expect(machine.window == Machine.Window(lower: .shut, upper: .open))
        let empty = try #require(Self.started(machine.refreshRequested()))
        #expect(machine.pageLoaded(empty.token, nextCursor: nil) == .applyPage(.replace))
        #expect(machine.window == Machine.Window(lower: .open, upper: .open))
    }

    @Test func aFailedJumpIsRetriedByEitherDirectionOrRetry() throws {
        var machine = try Self.jumped()
        let jump = try #require(Self.started(machine.jumpRequested(to: 9)))
        _ = machine.pageFailed(jump.token, error: .timedOut(url: nil))
        #expect(machine.status.append == .failed(.timedOut(url: nil)) && machine.status.prepend == .failed(.timedOut(url: nil)))
        let again = try #require(Self.started(machine.loadPreviousRequested()))
        #expect(again.cursor == 9 && again.mode == .jump)
        _ = machine.pageFailed(again.token, error: .timedOut(url: nil))
        #expect(try #require(Self.started(machine.retryRequested())).mode == .jump)
    }

    /// Pages 3, 4, 5, 6 of ten rows each (rows 30…69), measured in a list of 40 rows.
    static func fourPages() throws -> (Machine, [Range<Int>?]) {
        var machine = try jumped()
        for (cursor, rows) in [(6, 60...69)] {
            let request = try #require(started(machine.loadRequested()))
            #expect(request.cursor == cursor)
            _ = machine.pageLoaded(request.token, nextCursor: cursor + 1, previousCursor: cursor - 1, bounds: bounds(rows))
        }
        for (cursor, rows) in [(4, 40...49), (3, 30...39)] {
            let request = try #require(started(machine.loadPreviousRequested()))
            #expect(request.cursor == cursor)
            _ = machine.pageLoaded(request.token, nextCursor: cursor + 1, previousCursor: cursor - 1, bounds: bounds(rows))
        }
        #expect(machine.ledger.map(\.cursor) == [3, 4, 5, 6])
        return (machine, [0..<10, 10..<20, 20..<30, 30..<40])
    }

    @Test func pagesAreDroppedAtTheEndFartherFromTheVisibleRow() throws {
        var (machine, ranges) = try Self.fourPages()
        let version = machine.ledgerVersion
        #expect(machine.windowMeasured(version: version, pageRanges: ranges, count: 40, visibleOffset: 5, maxRows: 40) == .none, "not over the bound")
        #expect(machine.windowMeasured(version: version - 1, pageRanges: ranges, count: 40, visibleOffset: 5, maxRows: 25) == .none, "stale")
        // Row 5 is near the top: the bottom pages go, as few as bring the count to 25.
        #expect(machine.windowMeasured(version: version, pageRanges: ranges, count: 40, visibleOffset: 5, maxRows: 25) == .trim(.bottom, .exclusive(_RowBound(50))))
        #expect(machine.ledger.map(\.cursor) == [3, 4])
        #expect(machine.window.upper == .exclusive(_RowBound(50)))
        #expect(machine.status.append == .idle)
        // Scrolling down loads page 5 again: the next cursor of page 4.
        let reload = try #require(Self.started(machine.loadRequested()))
        #expect(reload.cursor == 5 && reload.mode == .append)
        #expect(machine.pageLoaded(reload.token, nextCursor: 6, previousCursor: 4, bounds: Self.bounds(50...59)) == .applyPage(.append))
        #expect(machine.status.append == .idle, "page 6, named again after it was dropped, is not a repeat")
        ranges = [0..<10, 10..<20, 20..<30]
        // Now row 28 is visible: the top goes, but never row 28's page.
        #expect(machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 30, visibleOffset: 28, maxRows: 5) == .trim(.top, .exclusive(_RowBound(49))))
        #expect(machine.ledger.map(\.cursor) == [5])
        #expect(machine.window.lower == .exclusive(_RowBound(49)))
        #expect(machine.status.prepend == .idle)
        #expect(try #require(Self.started(machine.loadPreviousRequested())).cursor == 4)
        // One page is always kept.
        #expect(machine.windowMeasured(version: machine.ledgerVersion, pageRanges: [0..<10], count: 10, visibleOffset: nil, maxRows: 5) == .none)
    }

    @Test func droppingAReachedEndOpensItAgainAndSupersedesItsLoad() throws {
        var (machine, ranges) = try Self.fourPages()
        let previous = try #require(Self.started(machine.loadPreviousRequested()))
        // Row 38 is near the bottom: the top goes, and the load of page 2 is superseded.
        let action = machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 40, visibleOffset: 38, maxRows: 20)
        #expect(action == .trim(.top, .exclusive(_RowBound(49))))
        #expect(machine.pageLoaded(previous.token, nextCursor: 3, previousCursor: 1) == .none)
        #expect(machine.status.prepend == .idle)
        #expect(try #require(Self.started(machine.loadPreviousRequested())).cursor == 4)
        // A bottom that was reached is no longer reached once dropped.
        (machine, ranges) = try Self.fourPages()
        let last = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(last.token, nextCursor: nil, previousCursor: 6, bounds: Self.bounds(70...74))
        #expect(machine.status.append == .exhausted && machine.window.upper == .open)
        ranges.append(40..<45)
        #expect(machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 45, visibleOffset: 0, maxRows: 30) == .trim(.bottom, .exclusive(_RowBound(60))))
        #expect(machine.status.append == .idle)
        #expect(try #require(Self.started(machine.loadRequested())).cursor == 6)
    }

    @Test func withoutAVisibleRowTheEndThatDidNotGrowIsDropped() throws {
        var (machine, ranges) = try Self.fourPages()  // the last page came at the top
        #expect(machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 40, visibleOffset: nil, maxRows: 30) == .trim(.bottom, .exclusive(_RowBound(60))))
        ranges.removeLast()
        let next = try #require(Self.started(machine.loadRequested()))
        _ = machine.pageLoaded(next.token, nextCursor: 7, previousCursor: 5, bounds: Self.bounds(60...69))
        ranges.append(30..<40)
        #expect(machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 40, visibleOffset: nil, maxRows: 30) == .trim(.top, .exclusive(_RowBound(39))))
    }

    @Test func afterADropTheEndDroppedIsNotLoadedAgainByItself() throws {
        var (machine, ranges) = try Self.fourPages()
        _ = machine.itemAppeared(at: 20, count: 40)
        _ = machine.windowMeasured(version: machine.ledgerVersion, pageRanges: ranges, count: 40, visibleOffset: 35, maxRows: 30)
        ranges.removeFirst()
        // Row 25 of 30 is within 5 of the end, but the end that was dropped is the top.
        #expect(machine.settled(count: 30, visibleOffset: 2, except: .top, ledgerVersion: machine.ledgerVersion) == .none)
        // A count measured before the ledger last changed is stale: nothing loads.
        #expect(machine.settled(count: 30, visibleOffset: 26, except: .top, ledgerVersion: machine.ledgerVersion - 1) == .none)
        #expect(try #require(Self.started(machine.settled(count: 30, visibleOffset: 26, except: .top, ledgerVersion: machine.ledgerVersion))).mode == .append)
    }
}

import struct Foundation.URL

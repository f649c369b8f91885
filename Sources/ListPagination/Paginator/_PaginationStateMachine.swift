/// The paginator's decisions as a value: which page to load, when to retry, which
/// responses to apply and which to discard, when to show the loading indicator.
///
/// Each event method updates the state and returns the one ``Action`` the driver
/// (``Paginator``) must perform; the machine does no I/O, holds no tasks and reads no
/// clock, so tests drive it event by event.
///
/// Every load is issued with a fresh ``Token``. A response, failure or backoff timer
/// counts only if its token is the one the machine is waiting for, so anything that
/// belongs to a request that was superseded — by ``refreshRequested()``, by
/// ``resetRequested()`` (both start a new *generation*) or by a retry — is discarded.
struct _PaginationStateMachine<Cursor: Sendable>: Sendable {
    /// Names one issued request.
    struct Token: Hashable, Sendable, CustomStringConvertible {
        /// Bumped by every refresh and reset.
        let generation: Int
        /// Bumped by every request.
        let sequence: Int
        var description: String { "g\(generation)#\(sequence)" }
    }

    /// How a loaded page is applied to the data source.
    enum Mode: Hashable, Sendable {
        /// `add`: a next page (overlapping rows deduplicate by id).
        case append
        /// `replaceAll`: the first page of a refresh.
        case replace
    }

    /// A page to load.
    struct Request: Sendable {
        let token: Token
        let cursor: Cursor?
        let mode: Mode
    }

    /// What the driver must do after an event.
    enum Action: Sendable {
        /// Nothing (the event was ignored or was stale).
        case none
        /// Cancel the running load and any retry timer, then load `request`. If
        /// `indicatorEpisode` is set, a new loading episode began: start the indicator
        /// timer for it.
        case startLoad(Request, indicatorEpisode: Int?)
        /// The load failed and will be retried: after `delay`, send `backoffElapsed(token)`.
        case scheduleRetry(Token, delay: Duration)
        /// Apply the loaded page with `mode`; the episode is over.
        case applyPage(Mode)
        /// The load failed for good; the state is now `failed(error)`; the episode is over.
        case fail(PaginationError)
        /// The indicator turned on.
        case showIndicator
        /// Cancel the running load and all timers, and remove every row.
        case reset
    }

    private enum State {
        /// Waiting; `next` is the page to load (`nil`: the first).
        case idle(next: Cursor?)
        case loading(Request, failures: Int)
        case backingOff(Request, failures: Int)
        case failed(Request, failures: Int, error: PaginationError)
        case exhausted
    }

    let retryPolicy: RetryPolicy
    let prefetchDistance: Int
    /// The indicator turns on as soon as a load starts (a zero delay).
    let showsIndicatorImmediately: Bool

    private var state: State = .idle(next: nil)
    private var generation = 0
    private var sequence = 0
    private var episode = 0
    private var indicatorShown = false
    private var loadedPages = 0
    /// The list's size as the latest applied page that said so reported it.
    private var totalItems: Int?
    private var totalPages: Int?
    /// The successor cursors accepted since the first page, when cursors are `Hashable`.
    private var acceptedCursors: Set<_CursorKey> = []
    /// The offset of the last row reported visible since the rows were last replaced or
    /// removed, which ``pageApplied(count:)`` checks again once a page is in.
    private(set) var lastAppearedOffset: Int?

    init(retryPolicy: RetryPolicy, prefetchDistance: Int, showsIndicatorImmediately: Bool) {
        precondition(prefetchDistance >= 0, "prefetchDistance must not be negative, got \(prefetchDistance)")
        self.retryPolicy = retryPolicy
        self.prefetchDistance = prefetchDistance
        self.showsIndicatorImmediately = showsIndicatorImmediately
    }

    // MARK: Reading

    /// The state as users see it.
    var status: PaginationStatus {
        var status = switch state {
        case .idle:
            PaginationStatus(state: .idle, loadedPages: loadedPages)
        case .loading(let request, let failures), .backingOff(let request, let failures):
            PaginationStatus(
                state: .loading,
                isShowingLoadingIndicator: indicatorShown,
                isRefreshing: request.mode == .replace,
                loadedPages: loadedPages,
                failedAttempts: failures
            )
        case .failed(_, let failures, let error):
            PaginationStatus(state: .failed(error), loadedPages: loadedPages, failedAttempts: failures)
        case .exhausted:
            PaginationStatus(state: .exhausted, loadedPages: loadedPages)
        }
        status.totalItems = totalItems
        status.totalPages = totalPages
        return status
    }

    /// Whether a load is running or waiting to be retried.
    var isLoading: Bool {
        switch state {
        case .loading, .backingOff: true
        case .idle, .failed, .exhausted: false
        }
    }

    /// Whether an automatic retry is waiting for its delay.
    var isBackingOff: Bool {
        if case .backingOff = state { true } else { false }
    }

    // MARK: Events

    /// The user asked for the next page. Starts it when idle; when failed, loads the
    /// failed page again. Ignored while loading or backing off, and when exhausted.
    mutating func loadRequested() -> Action {
        switch state {
        case .idle(let next):
            return start(cursor: next, mode: .append, failures: 0, newEpisode: true)
        case .failed(let request, _, _):
            return start(cursor: request.cursor, mode: request.mode, failures: 0, newEpisode: true)
        case .loading, .backingOff, .exhausted:
            return .none
        }
    }

    /// Whether at most `distance` rows follow the row at `offset` of a list of `count`
    /// rows: with 0, only the last row (or one past it) qualifies.
    static func isWithin(_ distance: Int, ofTheEndFrom offset: Int, count: Int) -> Bool {
        count - 1 - offset <= distance
    }

    /// The row at `offset` of a list of `count` rows became visible. Loads the next
    /// page when idle and at most `prefetchDistance` rows follow it (see
    /// ``isWithin(_:ofTheEndFrom:count:)``). A failed load is not retried by scrolling;
    /// that takes ``retryRequested()`` or ``loadRequested()``.
    mutating func itemAppeared(at offset: Int, count: Int) -> Action {
        precondition(offset >= 0, "itemDidAppear(at:) needs a row offset, got \(offset)")
        lastAppearedOffset = offset
        guard case .idle = state, Self.isWithin(prefetchDistance, ofTheEndFrom: offset, count: count) else { return .none }
        return loadRequested()
    }

    /// A page has been applied and the list now holds `count` rows: loads the next page
    /// when idle and the last row reported visible is still within ``prefetchDistance``
    /// of the end (the page added fewer rows than that, or only rows already loaded), as
    /// ``itemAppeared(at:count:)`` would. Nothing when no row was reported since the
    /// rows were last replaced or removed.
    mutating func pageApplied(count: Int) -> Action {
        guard let offset = lastAppearedOffset else { return .none }
        return itemAppeared(at: offset, count: count)
    }

    /// The user asked to retry. Loads the failed page again; skips the rest of a
    /// backoff delay; otherwise ignored.
    mutating func retryRequested() -> Action {
        switch state {
        case .failed(let request, _, _):
            return start(cursor: request.cursor, mode: request.mode, failures: 0, newEpisode: true)
        case .backingOff(let request, let failures):
            return start(cursor: request.cursor, mode: request.mode, failures: failures, newEpisode: false)
        case .idle, .loading, .exhausted:
            return .none
        }
    }

    /// Loads the first page again, to replace the rows when it arrives. Whatever was
    /// in flight is superseded (a new generation). Ignored while a refresh is running.
    mutating func refreshRequested() -> Action {
        switch state {
        case .loading(let request, _) where request.mode == .replace:
            return .none
        case .backingOff(let request, _) where request.mode == .replace:
            return .none
        default:
            let continuing = isLoading
            generation += 1
            lastAppearedOffset = nil
            return start(cursor: nil, mode: .replace, failures: 0, newEpisode: !continuing)
        }
    }

    /// Forgets every page: back to idle before the first page, in a new generation.
    mutating func resetRequested() -> Action {
        generation += 1
        state = .idle(next: nil)
        indicatorShown = false
        loadedPages = 0
        totalItems = nil
        totalPages = nil
        acceptedCursors = []
        lastAppearedOffset = nil
        return .reset
    }

    /// The request with `token` returned a page whose successor is `nextCursor`, and
    /// which says the list holds `totalItems` items in `totalPages` pages (`nil`: it does
    /// not say).
    ///
    /// The list is exhausted after a page without a successor, and after one whose
    /// successor names a page loaded before (since the first page): a server that
    /// repeats a cursor would otherwise have the same pages loaded forever. Repeats are
    /// found for `Hashable` cursors only. A next page that does not give a total keeps
    /// the one known; the first page of a refresh replaces it.
    mutating func pageLoaded(_ token: Token, nextCursor: Cursor?, totalItems: Int? = nil, totalPages: Int? = nil) -> Action {
        guard case .loading(let request, _) = state, request.token == token else { return .none }
        if request.mode == .replace {
            loadedPages = 1
            acceptedCursors = []
            self.totalItems = totalItems
            self.totalPages = totalPages
        } else {
            loadedPages += 1
            self.totalItems = totalItems ?? self.totalItems
            self.totalPages = totalPages ?? self.totalPages
        }
        if let next = nextCursor, _accept(next) {
            state = .idle(next: next)
        } else {
            state = .exhausted
        }
        indicatorShown = false
        return .applyPage(request.mode)
    }

    /// Whether `cursor` names a page not loaded since the first page; if so, it is
    /// remembered. Cursors that are not `Hashable` are always accepted.
    private mutating func _accept(_ cursor: Cursor) -> Bool {
        guard let key = _CursorKey(cursor) else { return true }
        return acceptedCursors.insert(key).inserted
    }

    /// The request with `token` failed with `error`.
    ///
    /// - Parameter randomUnit: a number in 0..<1 that picks the backoff jitter.
    mutating func pageFailed(_ token: Token, error: PaginationError, randomUnit: Double = 0) -> Action {
        guard case .loading(let request, let failures) = state, request.token == token else { return .none }
        let attempts = failures + 1
        if error != .cancelled && attempts < retryPolicy.maxAttempts && retryPolicy.shouldRetry(error) {
            state = .backingOff(request, failures: attempts)
            return .scheduleRetry(token, delay: retryPolicy.delay(beforeRetry: attempts, randomUnit: randomUnit))
        }
        state = .failed(request, failures: attempts, error: error)
        indicatorShown = false
        return .fail(error)
    }

    /// The backoff delay scheduled for `token` is over: retry the same page.
    mutating func backoffElapsed(_ token: Token) -> Action {
        guard case .backingOff(let request, let failures) = state, request.token == token else { return .none }
        return start(cursor: request.cursor, mode: request.mode, failures: failures, newEpisode: false)
    }

    /// The indicator delay of loading episode `episode` is over.
    mutating func indicatorDelayElapsed(_ episode: Int) -> Action {
        guard isLoading, episode == self.episode, !indicatorShown else { return .none }
        indicatorShown = true
        return .showIndicator
    }

    // MARK: Helpers

    private mutating func start(cursor: Cursor?, mode: Mode, failures: Int, newEpisode: Bool) -> Action {
        sequence += 1
        let request = Request(token: Token(generation: generation, sequence: sequence), cursor: cursor, mode: mode)
        state = .loading(request, failures: failures)
        guard newEpisode else { return .startLoad(request, indicatorEpisode: nil) }
        episode += 1
        if showsIndicatorImmediately {
            indicatorShown = true
            return .startLoad(request, indicatorEpisode: nil)
        }
        indicatorShown = false
        return .startLoad(request, indicatorEpisode: episode)
    }

    /// Traps if the machine's fields contradict each other. Only with `LIST_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        precondition(!indicatorShown || isLoading, "the indicator is shown while nothing loads")
        precondition(loadedPages >= 0, "negative page count")
        switch state {
        case .loading(let request, let failures), .backingOff(let request, let failures), .failed(let request, let failures, _):
            precondition(request.token.generation == generation, "a request of an old generation is current")
            precondition(request.token.sequence == sequence, "the current request is not the latest issued")
            precondition(failures >= 0 && failures <= retryPolicy.maxAttempts, "failure count \(failures) out of range")
        case .idle, .exhausted:
            break
        }
        #endif
    }
}

extension _PaginationStateMachine.Request: Equatable where Cursor: Equatable {}
extension _PaginationStateMachine.Action: Equatable where Cursor: Equatable {}

/// A cursor of any `Hashable` type, as a key of a set.
///
/// `@unchecked Sendable` is safe: the only initializer takes a value of a `Sendable`
/// type, and an `AnyHashable` is an immutable box of the value it was made from, so the
/// key shares nothing but that value.
struct _CursorKey: Hashable, @unchecked Sendable {
    let cursor: AnyHashable

    /// The key of `cursor`, or `nil` when its type is not `Hashable`.
    init?<Cursor: Sendable>(_ cursor: Cursor) {
        guard let hashable = cursor as? any Hashable else { return nil }
        self.cursor = AnyHashable(hashable)
    }
}

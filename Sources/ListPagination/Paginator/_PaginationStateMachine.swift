/// The paginator's decisions as a value: which page to load in which direction, when to
/// retry, which responses to apply and which to discard, when to show the loading
/// indicator, and which pages a bounded window drops.
///
/// Each event method updates the state and returns the ``Action`` the driver
/// (``Paginator``) must perform (``Action/actions(_:)`` when an event asks for more than
/// one thing, such as loading in both directions); the machine does no I/O, holds no
/// tasks and reads no clock, so tests drive it event by event.
///
/// There are three *slots* for requests: the next pages (``Slot/append``), the previous
/// pages (``Slot/prepend``) and a refresh or jump (``Slot/replace``), which supersedes
/// the other two while it runs or has failed. Each slot has at most one request at a
/// time. Every load is issued with a fresh ``Token``. A response, failure or backoff
/// timer counts only if its token is the one a slot is waiting for, so anything that
/// belongs to a request that was superseded — by ``refreshRequested()``,
/// ``jumpRequested(to:)`` or ``resetRequested()`` (which start a new *generation*), by a
/// retry, or by a window dropping the pages at that end — is discarded.
///
/// The machine keeps a *ledger* of the loaded pages, top to bottom, with their cursors
/// and their first and last rows (``_RowBound``s it never compares), and the *window*:
/// the range of the list's order the loaded pages cover, open at a reached end. The
/// driver measures where the pages' rows stand in the list and reports it with
/// ``windowMeasured(version:pageRanges:count:visibleOffset:maxRows:)``, which decides
/// what to drop.
struct _PaginationStateMachine<Cursor: Sendable>: Sendable {
    /// Names one issued request.
    struct Token: Hashable, Sendable, CustomStringConvertible {
        /// Bumped by every refresh, jump and reset.
        let generation: Int
        /// Bumped by every request.
        let sequence: Int
        var description: String { "g\(generation)#\(sequence)" }
    }

    /// How a loaded page is applied to the data source.
    enum Mode: Hashable, Sendable {
        /// `add`: a next page (overlapping rows deduplicate by id).
        case append
        /// `add`: a previous page.
        case prepend
        /// `replaceAll`: the first page of a refresh.
        case replace
        /// `replaceAll`: the page a jump asked for.
        case jump

        /// The slot a request of this mode occupies.
        var slot: Slot {
            switch self {
            case .append: .append
            case .prepend: .prepend
            case .replace, .jump: .replace
            }
        }
    }

    /// Where a request waits: one request at a time per slot.
    enum Slot: Hashable, Sendable, CaseIterable {
        case append, prepend, replace
    }

    /// An end of the window.
    enum Edge: Hashable, Sendable {
        case top, bottom
    }

    /// A page to load.
    struct Request: Sendable {
        let token: Token
        let cursor: Cursor?
        let mode: Mode
    }

    /// One end of the window.
    enum Fence: Hashable, Sendable {
        /// The end of the list is reached: every row on this side belongs.
        case open
        /// Nothing is loaded: no row belongs.
        case shut
        /// Rows up to (upper end) or from (lower end) this row belong, the row included.
        case inclusive(_RowBound)
        /// Rows before (upper end) or after (lower end) this row belong, not the row.
        case exclusive(_RowBound)
    }

    /// The range of the list's order the loaded pages cover.
    struct Window: Hashable, Sendable {
        var lower: Fence
        var upper: Fence
        /// No page is loaded: no row belongs.
        static var empty: Window { Window(lower: .shut, upper: .shut) }
    }

    /// A loaded page, as the ledger keeps it.
    struct LedgerPage: Sendable {
        /// The cursor that loaded it.
        let cursor: Cursor?
        /// The cursor of the page before it, as it named it.
        let previous: Cursor?
        /// The cursor of the page after it, as it named it.
        let next: Cursor?
        /// Its first and last rows in the list's order; `nil` for an empty page.
        let bounds: _PageBounds?
    }

    /// What the driver must do after an event.
    enum Action: Sendable {
        /// Nothing (the event was ignored or was stale).
        case none
        /// Cancel the running load and any retry timer of the request's slot (of every
        /// slot, for a refresh or jump), then load `request`. If `indicatorEpisode` is
        /// set, a new loading episode began: start the indicator timer for it.
        case startLoad(Request, indicatorEpisode: Int?)
        /// The load failed and will be retried: after `delay`, send `backoffElapsed(token)`.
        case scheduleRetry(Token, delay: Duration)
        /// Apply the loaded page with `mode`.
        case applyPage(Mode)
        /// The load failed for good; its direction is now `failed(error)`.
        case fail(PaginationError)
        /// The indicator turned on.
        case showIndicator
        /// Cancel every load and timer, and remove every row.
        case reset
        /// Pages were dropped at `edge`: cancel that end's load and retry timer, and
        /// remove, in one call, every row that `fence` (the window's new fence at that
        /// end) does not let in.
        case trim(Edge, Fence)
        /// Several of the above, in order.
        indirect case actions([Action])
    }

    /// The state of one slot.
    private enum Load {
        /// Waiting; `cursor` is the page to load (`nil`: the first).
        case idle(Cursor?)
        case loading(Request, failures: Int)
        case backingOff(Request, failures: Int)
        case failed(Request, failures: Int, error: PaginationError)
        /// That end of the list is reached.
        case exhausted

        var request: Request? {
            switch self {
            case .loading(let request, _), .backingOff(let request, _), .failed(let request, _, _): request
            case .idle, .exhausted: nil
            }
        }

        var isLoading: Bool {
            switch self {
            case .loading, .backingOff: true
            case .idle, .failed, .exhausted: false
            }
        }

        var failures: Int {
            switch self {
            case .loading(_, let failures), .backingOff(_, let failures), .failed(_, let failures, _): failures
            case .idle, .exhausted: 0
            }
        }

        var state: PaginationState {
            switch self {
            case .idle: .idle
            case .loading, .backingOff: .loading
            case .failed(_, _, let error): .failed(error)
            case .exhausted: .exhausted
            }
        }
    }

    let retryPolicy: RetryPolicy
    let prefetchDistance: Int
    /// The indicator turns on as soon as a load starts (a zero delay).
    let showsIndicatorImmediately: Bool

    private var append: Load = .idle(nil)
    private var prepend: Load = .exhausted
    /// A refresh or jump that is running or has failed; `nil` otherwise.
    private var replace: Load?
    private var generation = 0
    private var sequence = 0
    private var episode = 0
    private var indicatorShown = false
    private var loadedPages = 0
    /// The list's size as the latest applied page that said so reported it.
    private var totalItems: Int?
    private var totalPages: Int?
    /// The loaded pages, top to bottom.
    private(set) var ledger: [LedgerPage] = []
    /// Bumped whenever ``ledger`` changes, so that a measurement of an older ledger is
    /// recognised as stale.
    private(set) var ledgerVersion = 0
    /// The range of the list's order the loaded pages cover.
    private(set) var window = Window.empty
    /// How many ledger pages name each next cursor (`Hashable` cursors only): a page
    /// whose next cursor is already named is a repeat, and ends the list.
    private var namedNext: [_CursorKey: Int] = [:]
    /// The same for previous cursors.
    private var namedPrevious: [_CursorKey: Int] = [:]
    /// The running jump already went on from an empty page once.
    private var followsEmptyPage = false
    /// The end that received the latest page.
    private var lastGrown: Edge = .bottom
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
        var status: PaginationStatus
        if let replace {
            let refreshing: Bool
            if replace.isLoading, let request = replace.request { refreshing = request.mode == .replace } else { refreshing = false }
            status = PaginationStatus(
                state: replace.state,
                prepend: replace.state,
                isRefreshing: refreshing,
                loadedPages: loadedPages,
                failedAttempts: replace.failures,
                prependFailedAttempts: replace.failures
            )
        } else {
            status = PaginationStatus(
                state: append.state,
                prepend: prepend.state,
                loadedPages: loadedPages,
                failedAttempts: append.failures,
                prependFailedAttempts: prepend.failures
            )
        }
        status.isShowingLoadingIndicator = indicatorShown && isLoading
        status.totalItems = totalItems
        status.totalPages = totalPages
        return status
    }

    /// Whether a refresh or jump is running or has failed (and will be retried by the
    /// next load in either direction).
    var isReplacing: Bool { replace != nil }

    /// Whether a load is running or waiting to be retried, in any slot.
    var isLoading: Bool {
        append.isLoading || prepend.isLoading || replace?.isLoading == true
    }

    /// Whether a load of `slot` is running or waiting to be retried.
    func isLoading(_ slot: Slot) -> Bool {
        self[slot]?.isLoading == true
    }

    /// Whether an automatic retry is waiting for its delay, in any slot.
    var isBackingOff: Bool {
        Slot.allCases.contains { slot in
            if case .backingOff = self[slot] { true } else { false }
        }
    }

    /// The slot whose request has `token`, if any.
    func slot(of token: Token) -> Slot? {
        Slot.allCases.first { self[$0]?.request?.token == token }
    }

    private subscript(slot: Slot) -> Load? {
        get {
            switch slot {
            case .append: append
            case .prepend: prepend
            case .replace: replace
            }
        }
        set {
            switch slot {
            case .append: append = newValue ?? .exhausted
            case .prepend: prepend = newValue ?? .exhausted
            case .replace: replace = newValue
            }
        }
    }

    // MARK: Events

    /// The user asked for the next page. Starts it when idle; when failed, loads the
    /// failed page again. Ignored while loading or backing off, and when exhausted.
    /// While a refresh or jump has failed, it is tried again.
    mutating func loadRequested() -> Action {
        request(.append)
    }

    /// The user asked for the previous page: as ``loadRequested()``, before the first
    /// loaded row.
    mutating func loadPreviousRequested() -> Action {
        request(.prepend)
    }

    private mutating func request(_ slot: Slot) -> Action {
        if let replace {
            guard case .failed(let request, _, _) = replace else { return .none }
            return start(.replace, cursor: request.cursor, mode: request.mode, failures: 0, newEpisode: true)
        }
        switch self[slot] {
        case .idle(let cursor)?:
            return start(slot, cursor: cursor, mode: slot == .append ? .append : .prepend, failures: 0, newEpisode: true)
        case .failed(let request, _, _)?:
            return start(slot, cursor: request.cursor, mode: request.mode, failures: 0, newEpisode: true)
        default:
            return .none
        }
    }

    /// Whether at most `distance` rows follow the row at `offset` of a list of `count`
    /// rows: with 0, only the last row (or one past it) qualifies.
    static func isWithin(_ distance: Int, ofTheEndFrom offset: Int, count: Int) -> Bool {
        count - 1 - offset <= distance
    }

    /// Whether at most `distance` rows precede the row at `offset`.
    static func isWithin(_ distance: Int, ofTheStartFrom offset: Int) -> Bool {
        offset <= distance
    }

    /// The row at `offset` of a list of `count` rows became visible. Loads the next
    /// page when that slot is idle and at most `prefetchDistance` rows follow it (see
    /// ``isWithin(_:ofTheEndFrom:count:)``), and the previous page when that slot is
    /// idle and at most `prefetchDistance` rows precede it. A failed load is not
    /// retried by scrolling; that takes ``retryRequested()`` or ``loadRequested()``.
    mutating func itemAppeared(at offset: Int, count: Int) -> Action {
        precondition(offset >= 0, "itemDidAppear(at:) needs a row offset, got \(offset)")
        lastAppearedOffset = offset
        return prefetch(at: offset, count: count, except: nil)
    }

    private mutating func prefetch(at offset: Int, count: Int, except skipped: Edge?) -> Action {
        guard replace == nil else { return .none }
        var actions: [Action] = []
        if skipped != .bottom, case .idle = append, Self.isWithin(prefetchDistance, ofTheEndFrom: offset, count: count) {
            actions.append(request(.append))
        }
        if skipped != .top, case .idle = prepend, Self.isWithin(prefetchDistance, ofTheStartFrom: offset) {
            actions.append(request(.prepend))
        }
        return Self.combined(actions)
    }

    /// A page has been applied and the list now holds `count` rows: loads the next page
    /// when idle and the last row reported visible is still within ``prefetchDistance``
    /// of the end (the page added fewer rows than that, or only rows already loaded), as
    /// ``itemAppeared(at:count:)`` would; the same for the previous page at the start.
    /// Nothing when no row was reported since the rows were last replaced or removed.
    mutating func pageApplied(count: Int) -> Action {
        guard let offset = lastAppearedOffset else { return .none }
        return itemAppeared(at: offset, count: count)
    }

    /// As ``pageApplied(count:)``, with the last row reported visible now at
    /// `visibleOffset` (rows came or went before it), and without loading at the end
    /// `skipped` (where pages were just dropped: loading them again at once would undo
    /// the drop). Ignored unless `version` is the ``ledgerVersion``: a count measured
    /// before another page was applied or pages were dropped is stale, and would load a
    /// page no visible row asked for.
    mutating func settled(count: Int, visibleOffset: Int?, except skipped: Edge?, ledgerVersion version: Int) -> Action {
        guard version == ledgerVersion, lastAppearedOffset != nil, let visibleOffset else { return .none }
        lastAppearedOffset = visibleOffset
        return prefetch(at: visibleOffset, count: count, except: skipped)
    }

    /// The user asked to retry. Loads each failed direction's page again (or the failed
    /// refresh or jump); skips the rest of a backoff delay; otherwise ignored.
    mutating func retryRequested() -> Action {
        let slots: [Slot] = replace == nil ? [.append, .prepend] : [.replace]
        var actions: [Action] = []
        for slot in slots {
            switch self[slot] {
            case .failed(let request, _, _)?:
                actions.append(start(slot, cursor: request.cursor, mode: request.mode, failures: 0, newEpisode: true))
            case .backingOff(let request, let failures)?:
                actions.append(start(slot, cursor: request.cursor, mode: request.mode, failures: failures, newEpisode: false))
            default:
                break
            }
        }
        return Self.combined(actions)
    }

    /// Loads the first page again, to replace the rows when it arrives. Whatever was
    /// in flight is superseded (a new generation). Ignored while a refresh is running.
    mutating func refreshRequested() -> Action {
        if let request = replace?.request, replace?.isLoading == true, request.mode == .replace {
            return .none
        }
        return startReplacing(cursor: nil, mode: .replace)
    }

    /// Loads the page at `cursor`, to replace every row with it when it arrives.
    /// Whatever was in flight, a refresh included, is superseded (a new generation). A
    /// page that comes back empty (past either end of the list) is not applied: the
    /// jump goes on, once, to the page it names before it, or else to the first page.
    mutating func jumpRequested(to cursor: Cursor?) -> Action {
        startReplacing(cursor: cursor, mode: .jump)
    }

    private mutating func startReplacing(cursor: Cursor?, mode: Mode) -> Action {
        let continuing = isLoading
        followsEmptyPage = false
        generation += 1
        lastAppearedOffset = nil
        // The directions' requests are superseded; they resume from the new page.
        append = Self.parked(append)
        prepend = Self.parked(prepend)
        return start(.replace, cursor: cursor, mode: mode, failures: 0, newEpisode: !continuing)
    }

    /// `load` without its request: idle at the request's cursor.
    private static func parked(_ load: Load) -> Load {
        switch load {
        case .loading(let request, _), .backingOff(let request, _), .failed(let request, _, _): .idle(request.cursor)
        case .idle, .exhausted: load
        }
    }

    /// Forgets every page: back to idle before the first page, in a new generation.
    mutating func resetRequested() -> Action {
        generation += 1
        append = .idle(nil)
        prepend = .exhausted
        replace = nil
        followsEmptyPage = false
        indicatorShown = false
        loadedPages = 0
        totalItems = nil
        totalPages = nil
        ledger = []
        ledgerVersion += 1
        window = .empty
        namedNext = [:]
        namedPrevious = [:]
        lastAppearedOffset = nil
        return .reset
    }

    /// The request with `token` returned a page whose successor is `nextCursor`, whose
    /// predecessor is `previousCursor`, whose first and last rows are `bounds` (`nil`:
    /// it is empty), and which says the list holds `totalItems` items in `totalPages`
    /// pages (`nil`: it does not say).
    ///
    /// An end is reached after a page without a successor (predecessor, for a previous
    /// page), and after one whose successor names a page loaded before (one still in the
    /// ledger): a server that repeats a cursor would otherwise have the same pages loaded
    /// forever. Repeats are found for `Hashable` cursors only. A page that does not give
    /// a total keeps the one known; the page of a refresh or jump replaces it.
    mutating func pageLoaded(
        _ token: Token,
        nextCursor: Cursor?,
        previousCursor: Cursor? = nil,
        bounds: _PageBounds? = nil,
        totalItems: Int? = nil,
        totalPages: Int? = nil
    ) -> Action {
        guard let slot = slot(of: token), case .loading(let request, let failures)? = self[slot] else { return .none }
        // A jump past either end lands on an empty page: it goes on, once, to the page
        // before it, or else to the first page, so that the window covers real rows.
        if slot == .replace, bounds == nil, !followsEmptyPage, previousCursor != nil || request.cursor != nil {
            followsEmptyPage = true
            return start(.replace, cursor: previousCursor, mode: request.mode, failures: failures, newEpisode: false)
        }
        if slot == .replace { followsEmptyPage = false }
        let page = LedgerPage(cursor: request.cursor, previous: previousCursor, next: nextCursor, bounds: bounds)
        switch slot {
        case .replace:
            replace = nil
            loadedPages = 1
            self.totalItems = totalItems
            self.totalPages = totalPages
            ledger = []
            namedNext = [:]
            namedPrevious = [:]
            window = .empty
            place(page, at: .bottom, isFirst: true)
        case .append, .prepend:
            loadedPages += 1
            self.totalItems = totalItems ?? self.totalItems
            self.totalPages = totalPages ?? self.totalPages
            place(page, at: slot == .append ? .bottom : .top, isFirst: ledger.isEmpty)
        }
        ledgerVersion += 1
        if !isLoading { indicatorShown = false }
        return .applyPage(request.mode)
    }

    /// Adds `page` to the ledger at `edge` and moves that end of the window and its
    /// cursor (both ends for the first page).
    private mutating func place(_ page: LedgerPage, at edge: Edge, isFirst: Bool) {
        lastGrown = edge
        if edge == .bottom || isFirst {
            let reached = !Self.name(page.next, in: &namedNext)
            append = reached ? .exhausted : .idle(page.next)
            window.upper = reached ? .open : page.bounds.map { .inclusive($0.last) } ?? (isFirst ? .shut : window.upper)
        } else {
            Self.count(page.next, in: &namedNext)
        }
        if edge == .top || isFirst {
            let reached = !Self.name(page.previous, in: &namedPrevious)
            prepend = reached ? .exhausted : .idle(page.previous)
            window.lower = reached ? .open : page.bounds.map { .inclusive($0.first) } ?? (isFirst ? .shut : window.lower)
        } else {
            Self.count(page.previous, in: &namedPrevious)
        }
        if edge == .top { ledger.insert(page, at: 0) } else { ledger.append(page) }
    }

    /// Whether `cursor` names a page not named by a page in the ledger; it is counted
    /// either way. `nil` names no page. Cursors that are not `Hashable` always count as new.
    private static func name(_ cursor: Cursor?, in named: inout [_CursorKey: Int]) -> Bool {
        guard let cursor else { return false }
        guard let key = _CursorKey(cursor) else { return true }
        defer { named[key, default: 0] += 1 }
        return named[key] == nil
    }

    private static func count(_ cursor: Cursor?, in named: inout [_CursorKey: Int]) {
        guard let cursor, let key = _CursorKey(cursor) else { return }
        named[key, default: 0] += 1
    }

    private static func forget(_ cursor: Cursor?, in named: inout [_CursorKey: Int]) {
        guard let cursor, let key = _CursorKey(cursor), let count = named[key] else { return }
        named[key] = count > 1 ? count - 1 : nil
    }

    /// The request with `token` failed with `error`.
    ///
    /// - Parameter randomUnit: a number in 0..<1 that picks the backoff jitter.
    mutating func pageFailed(_ token: Token, error: PaginationError, randomUnit: Double = 0) -> Action {
        guard let slot = slot(of: token), case .loading(let request, let failures)? = self[slot] else { return .none }
        let attempts = failures + 1
        if error != .cancelled && attempts < retryPolicy.maxAttempts && retryPolicy.shouldRetry(error) {
            self[slot] = .backingOff(request, failures: attempts)
            return .scheduleRetry(token, delay: retryPolicy.delay(beforeRetry: attempts, randomUnit: randomUnit))
        }
        self[slot] = .failed(request, failures: attempts, error: error)
        if !isLoading { indicatorShown = false }
        return .fail(error)
    }

    /// The backoff delay scheduled for `token` is over: retry the same page.
    mutating func backoffElapsed(_ token: Token) -> Action {
        guard let slot = slot(of: token), case .backingOff(let request, let failures)? = self[slot] else { return .none }
        return start(slot, cursor: request.cursor, mode: request.mode, failures: failures, newEpisode: false)
    }

    /// The indicator delay of loading episode `episode` is over.
    mutating func indicatorDelayElapsed(_ episode: Int) -> Action {
        guard isLoading, episode == self.episode, !indicatorShown else { return .none }
        indicatorShown = true
        return .showIndicator
    }

    // MARK: The window

    /// The driver measured the list against ledger `version`: `pageRanges[i]` is where
    /// the rows of ledger page *i* stand in the list of `count` rows (from the position
    /// of its first row to just past its last; `nil` for an empty page), and the last row
    /// reported visible is at `visibleOffset` (`nil`: none was reported).
    ///
    /// When the list holds more than `maxRows` rows, drops whole pages from the end
    /// farther from the visible row (with none, the end that did not just grow), as few
    /// as bring the count to `maxRows` but never the visible row's, and always keeps one
    /// page. The window's fence at that end moves to the dropped rows, and that end's
    /// cursor becomes the one that loads the first dropped page again: the previous
    /// (next) cursor of the page now at the top (bottom), or else the cursor that loaded
    /// the dropped page. A load running at that end is superseded. Nothing happens for a
    /// measurement of another ledger version.
    mutating func windowMeasured(version: Int, pageRanges: [Range<Int>?], count: Int, visibleOffset: Int?, maxRows: Int) -> Action {
        guard version == ledgerVersion, pageRanges.count == ledger.count, ledger.count > 1, count > maxRows else { return .none }
        let edge: Edge
        if let visible = visibleOffset {
            let before = visible, after = count - 1 - visible
            edge = before == after ? (lastGrown == .bottom ? .top : .bottom) : (after > before ? .bottom : .top)
        } else {
            edge = lastGrown == .bottom ? .top : .bottom
        }
        switch edge {
        case .bottom:
            // Drop pages kept..<ledger.count; the rows left are those before the first dropped row.
            var kept: Int?
            for candidate in stride(from: ledger.count - 1, through: 1, by: -1) {
                let remaining = pageRanges[candidate...].compactMap { $0?.lowerBound }.min() ?? count
                if let visible = visibleOffset, visible >= remaining { break }
                kept = candidate
                if remaining <= maxRows { break }
            }
            guard let kept else { return .none }
            return dropBottom(keeping: kept)
        case .top:
            // Drop pages 0...last; the rows left are those after the last dropped row.
            var lastDropped: Int?
            for candidate in 0..<(ledger.count - 1) {
                let end = pageRanges[...candidate].compactMap { $0?.upperBound }.max() ?? 0
                if let visible = visibleOffset, visible < end { break }
                lastDropped = candidate
                if count - end <= maxRows { break }
            }
            guard let lastDropped else { return .none }
            return dropTop(through: lastDropped)
        }
    }

    private mutating func dropBottom(keeping kept: Int) -> Action {
        let dropped = ledger[kept...]
        let remaining = ledger[..<kept]
        let fence: Fence
        if let first = dropped.lazy.compactMap(\.bounds).first?.first {
            fence = .exclusive(first)
        } else if let last = remaining.lazy.compactMap(\.bounds).last?.last {
            fence = .inclusive(last)
        } else {
            fence = .shut
        }
        for page in dropped {
            Self.forget(page.next, in: &namedNext)
            Self.forget(page.previous, in: &namedPrevious)
        }
        append = .idle(remaining.last?.next ?? dropped.first?.cursor)
        window.upper = fence
        ledger.removeSubrange(kept...)
        ledgerVersion += 1
        if !isLoading { indicatorShown = false }
        return .trim(.bottom, fence)
    }

    private mutating func dropTop(through lastDropped: Int) -> Action {
        let dropped = ledger[...lastDropped]
        let remaining = ledger[(lastDropped + 1)...]
        let fence: Fence
        if let last = dropped.lazy.compactMap(\.bounds).last?.last {
            fence = .exclusive(last)
        } else if let first = remaining.lazy.compactMap(\.bounds).first?.first {
            fence = .inclusive(first)
        } else {
            fence = .shut
        }
        for page in dropped {
            Self.forget(page.next, in: &namedNext)
            Self.forget(page.previous, in: &namedPrevious)
        }
        prepend = .idle(remaining.first?.previous ?? dropped.last?.cursor)
        window.lower = fence
        ledger.removeSubrange(...lastDropped)
        ledgerVersion += 1
        if !isLoading { indicatorShown = false }
        return .trim(.top, fence)
    }

    // MARK: Helpers

    private mutating func start(_ slot: Slot, cursor: Cursor?, mode: Mode, failures: Int, newEpisode: Bool) -> Action {
        let wasLoading = isLoading
        sequence += 1
        let request = Request(token: Token(generation: generation, sequence: sequence), cursor: cursor, mode: mode)
        self[slot] = .loading(request, failures: failures)
        guard newEpisode, !wasLoading else { return .startLoad(request, indicatorEpisode: nil) }
        episode += 1
        if showsIndicatorImmediately {
            indicatorShown = true
            return .startLoad(request, indicatorEpisode: nil)
        }
        indicatorShown = false
        return .startLoad(request, indicatorEpisode: episode)
    }

    private static func combined(_ actions: [Action]) -> Action {
        let some = actions.filter { if case .none = $0 { false } else { true } }
        switch some.count {
        case 0: return .none
        case 1: return some[0]
        default: return .actions(some)
        }
    }

    /// Traps if the machine's fields contradict each other. Only with `LIST_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        precondition(!indicatorShown || isLoading, "the indicator is shown while nothing loads")
        precondition(loadedPages >= 0, "negative page count")
        var tokens: Set<Token> = []
        for slot in Slot.allCases {
            guard let load = self[slot], let request = load.request else { continue }
            precondition(request.token.generation == generation, "a request of an old generation is current")
            precondition(request.token.sequence <= sequence, "a request was issued out of sequence")
            precondition(request.mode.slot == slot, "a \(request.mode) request waits in the \(slot) slot")
            precondition(tokens.insert(request.token).inserted, "two slots wait for one token")
            precondition(load.failures >= 0 && load.failures <= retryPolicy.maxAttempts, "failure count \(load.failures) out of range")
        }
        precondition(!ledger.isEmpty || window == .empty || replace != nil, "an empty ledger with a window")
        precondition(namedNext.values.allSatisfy { $0 > 0 } && namedPrevious.values.allSatisfy { $0 > 0 }, "a cursor named no times is kept")
        #endif
    }
}

extension _PaginationStateMachine.Request: Equatable where Cursor: Equatable {}
extension _PaginationStateMachine.Action: Equatable where Cursor: Equatable {}

/// A row of a page, kept by the state machine without knowing its type, as one end of a
/// page or of the window. The driver, which knows the type, compares it.
///
/// `@unchecked Sendable` is safe: the only initializer takes a value of a `Sendable`
/// type, and an `AnyHashable` is an immutable box of the value it was made from, so the
/// bound shares nothing but that value.
struct _RowBound: Hashable, @unchecked Sendable, CustomStringConvertible {
    let row: AnyHashable

    init<Row: Hashable & Sendable>(_ row: Row) {
        self.row = AnyHashable(row)
    }

    /// The row, if it is a `Row`.
    func value<Row>(as _: Row.Type) -> Row? {
        row.base as? Row
    }

    var description: String { "\(row)" }
}

/// The first and last rows of a page in the list's order.
struct _PageBounds: Hashable, Sendable {
    let first: _RowBound
    let last: _RowBound
}

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

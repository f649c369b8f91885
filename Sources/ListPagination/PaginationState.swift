/// Where a ``Paginator`` stands.
///
/// ```
///  idle ──loadNextPage──▶ loading ──page──▶ idle, or exhausted after the last page
///                           │  ▲
///                     error │  │ retry() / automatic retry
///                           ▼  │
///                         failed
/// ```
/// While an automatic retry is waiting for its backoff delay the state stays
/// ``loading``; ``PaginationStatus/failedAttempts`` counts the failures so far.
///
/// Each direction of a ``Paginator`` has its own state (``PaginationStatus/append``,
/// ``PaginationStatus/prepend``): for the previous pages, ``exhausted`` means the start
/// of the list is loaded, and ``Paginator/loadPreviousPage()`` moves it as
/// ``Paginator/loadNextPage()`` moves the other.
public enum PaginationState: Sendable, Hashable {
    /// No load is running and more pages may follow.
    case idle
    /// A page (or, during a refresh, the first page) is being loaded or retried.
    case loading
    /// The last load failed and automatic retries, if any, are used up. Every row
    /// loaded before stays. ``Paginator/retry()`` or ``Paginator/loadNextPage()``
    /// loads the same page again.
    case failed(PaginationError)
    /// The last page has been loaded: one that names no next page, or one whose next
    /// cursor names a page loaded before (see ``Paginator``). For the previous pages:
    /// the first page is loaded (or no page is loaded yet).
    case exhausted
}

/// Everything a list screen shows about pagination, as one value.
///
/// A paginator pages in two directions: ``append`` is the state of loading the pages
/// after the last loaded row (``Paginator/loadNextPage()``), ``prepend`` the state of
/// loading the pages before the first (``Paginator/loadPreviousPage()``). ``state`` is
/// ``append``, as it was before paging backwards existed. ``PaginationState/exhausted``
/// means that end of the list is reached; ``prepend`` is `exhausted` until a page names
/// a page before it. While a ``Paginator/refresh()`` or ``Paginator/jump(to:)`` runs or
/// has failed, both directions show its state.
public struct PaginationStatus: Sendable, Hashable {
    /// The state of loading pages after the last loaded row.
    public var append: PaginationState
    /// The state of loading pages before the first loaded row.
    public var prepend: PaginationState
    /// The state of loading pages after the last loaded row: ``append``.
    ///
    /// - Complexity: O(1).
    public var state: PaginationState {
        get { append }
        set { append = newValue }
    }
    /// Whether to show a "loading" row: a load has been running for longer than the
    /// paginator's `loadingIndicatorDelay`.
    public var isShowingLoadingIndicator: Bool
    /// Whether the running load is a ``Paginator/refresh()``.
    public var isRefreshing: Bool
    /// Pages applied since the list was last reset, refreshed or jumped (a refresh or a
    /// jump counts its page), in either direction; pages a window dropped still count.
    public var loadedPages: Int
    /// Failed attempts in the current series at the current page, including automatic
    /// retries, of the ``append`` direction (or of a running refresh or jump). 0 after a
    /// success. A ``Paginator/retry()`` from ``PaginationState/failed(_:)`` starts a new
    /// series at 0; one during a backoff delay continues the series.
    public var failedAttempts: Int
    /// ``failedAttempts`` for the ``prepend`` direction.
    public var prependFailedAttempts: Int
    /// The number of items in the whole list, as the latest page that said so reported
    /// it (``Page/totalItems``); `nil` until one does, and again after a reset, or after
    /// a refresh whose first page does not say.
    public var totalItems: Int?
    /// The number of pages in the whole list, as the latest page that said so reported
    /// it (``Page/totalPages``); `nil` until one does, and again after a reset, or after
    /// a refresh whose first page does not say.
    public var totalPages: Int?

    /// Creates a status value.
    ///
    /// - Parameters:
    ///   - state: the state of the ``append`` direction.
    ///   - prepend: the state of the ``prepend`` direction; ``PaginationState/exhausted``
    ///     (no page before the first) by default.
    ///   - isShowingLoadingIndicator: whether to show a "loading" row; `false` by default.
    ///   - isRefreshing: whether the running load is a refresh; `false` by default.
    ///   - loadedPages: pages applied since the last reset or refresh; 0 by default.
    ///   - failedAttempts: failed attempts in the current series; 0 by default.
    ///   - prependFailedAttempts: failed attempts in the current series of the
    ///     ``prepend`` direction; 0 by default.
    ///   - totalItems: the number of items in the whole list, if known; `nil` by default.
    ///   - totalPages: the number of pages in the whole list, if known; `nil` by default.
    /// - Complexity: O(1).
    public init(
        state: PaginationState,
        prepend: PaginationState = .exhausted,
        isShowingLoadingIndicator: Bool = false,
        isRefreshing: Bool = false,
        loadedPages: Int = 0,
        failedAttempts: Int = 0,
        prependFailedAttempts: Int = 0,
        totalItems: Int? = nil,
        totalPages: Int? = nil
    ) {
        self.append = state
        self.prepend = prepend
        self.prependFailedAttempts = prependFailedAttempts
        self.isShowingLoadingIndicator = isShowingLoadingIndicator
        self.isRefreshing = isRefreshing
        self.loadedPages = loadedPages
        self.failedAttempts = failedAttempts
        self.totalItems = totalItems
        self.totalPages = totalPages
    }
}

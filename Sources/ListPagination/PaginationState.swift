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
    /// cursor names a page loaded before (see ``Paginator``).
    case exhausted
}

/// Everything a list screen shows about pagination, as one value.
public struct PaginationStatus: Sendable, Hashable {
    /// The paginator's state.
    public var state: PaginationState
    /// Whether to show a "loading" row: a load has been running for longer than the
    /// paginator's `loadingIndicatorDelay`.
    public var isShowingLoadingIndicator: Bool
    /// Whether the running load is a ``Paginator/refresh()``.
    public var isRefreshing: Bool
    /// Pages applied since the list was last reset or refreshed (a refresh counts its
    /// first page).
    public var loadedPages: Int
    /// Failed attempts in the current series at the current page, including automatic
    /// retries. 0 after a success. A ``Paginator/retry()`` from ``PaginationState/failed(_:)``
    /// starts a new series at 0; one during a backoff delay continues the series.
    public var failedAttempts: Int
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
    ///   - state: the paginator's state.
    ///   - isShowingLoadingIndicator: whether to show a "loading" row; `false` by default.
    ///   - isRefreshing: whether the running load is a refresh; `false` by default.
    ///   - loadedPages: pages applied since the last reset or refresh; 0 by default.
    ///   - failedAttempts: failed attempts in the current series; 0 by default.
    ///   - totalItems: the number of items in the whole list, if known; `nil` by default.
    ///   - totalPages: the number of pages in the whole list, if known; `nil` by default.
    /// - Complexity: O(1).
    public init(
        state: PaginationState,
        isShowingLoadingIndicator: Bool = false,
        isRefreshing: Bool = false,
        loadedPages: Int = 0,
        failedAttempts: Int = 0,
        totalItems: Int? = nil,
        totalPages: Int? = nil
    ) {
        self.state = state
        self.isShowingLoadingIndicator = isShowingLoadingIndicator
        self.isRefreshing = isRefreshing
        self.loadedPages = loadedPages
        self.failedAttempts = failedAttempts
        self.totalItems = totalItems
        self.totalPages = totalPages
    }
}

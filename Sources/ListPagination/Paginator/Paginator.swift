
/// Loads pages from a ``PageLoader`` into a `ListDataSource`, in both directions, with
/// prefetch, automatic and manual retry, refresh, jumps, a delayed loading indicator and,
/// optionally, a bound on the rows it keeps.
///
/// Pages are added with `ListDataSource.add(_:)`, so rows stay sorted by the data
/// source's order and a row that arrives twice (it shifted into the next offset page)
/// is kept once. There is at most one request per direction in flight: ``loadNextPage()``
/// is ignored while a next page is loading or waiting to be retried, and after the last
/// page; ``loadPreviousPage()`` likewise for the page before the first loaded row. The
/// exceptions are ``refresh()``, ``jump(to:)`` and ``reset()``, which cancel every
/// running request without waiting for it to end, so that the next request starts at
/// once: a loader that ignores cancellation may briefly run both, and the older
/// response is discarded.
///
/// - A failure keeps every loaded row, and a failure in one direction leaves the other
///   working. Errors that ``RetryPolicy/shouldRetry`` accepts are retried with
///   exponential backoff until ``RetryPolicy/maxAttempts``, each direction on its own;
///   then that direction is ``PaginationState/failed(_:)`` and ``retry()`` loads the
///   same cursor again.
/// - ``refresh()`` loads the first page and applies it with
///   `ListDataSource.replaceAll(with:)`: the old rows stay visible until it arrives,
///   then renderers get one batch. ``jump(to:)`` does the same with the page at any
///   cursor. A response to a request made before the refresh or jump is discarded,
///   even if it arrives later. ``reset()`` empties the list.
/// - The list is ``PaginationState/exhausted`` after a page that names no next page,
///   and after one whose next cursor names a page already loaded (one still loaded,
///   for `Hashable` cursors): a server that repeats a cursor would otherwise have the
///   same pages loaded forever. The previous pages end the same way, at a page whose
///   ``Page/previousCursor`` is `nil`.
/// - ``itemDidAppear(at:)`` loads the next page when at most ``prefetchDistance`` rows
///   follow the row that appeared (0: when the last row appears), and the previous page
///   when at most ``prefetchDistance`` rows precede it and the start is not reached.
/// - ``isShowingLoadingIndicator`` turns on only when a load is still running after
///   ``loadingIndicatorDelay``, so fast loads never flash a loading row.
///
/// ## Windows
///
/// The *window* is the range of the list's order between the first and the last loaded
/// row, open at an end that is reached (whose state is ``PaginationState/exhausted``).
/// With ``maxLoadedRows`` set, when a page (or a live change) takes the row count past
/// it, whole pages are dropped from the end farther from the last row reported to
/// ``itemDidAppear(at:)`` — in the page's own batch (after a live change, in the next
/// one), never the page of that row — and that
/// end's cursor becomes the cursor of the first dropped page, so that scrolling back
/// loads it again; that end is no longer reached. Live changes go through the window:
/// ``upsert(_:)`` adds an item that sorts inside it, removes a loaded item whose new
/// place is outside it, and ignores the rest; ``remove(ids:)`` removes loaded rows. So
/// the list never shows a row the source would not show between its first and last
/// row, and a long live feed cannot grow it past the bound — short of the page of the
/// visible row, which is never dropped, however many rows the feed puts in it. After a
/// drop, no page loads by itself: the next ``itemDidAppear(at:)`` near an end does.
///
/// The window compares rows with the items' `<`, which must be the data source's order
/// and the order the loader pages in. It is exact for cursors that name a row by its
/// key (keyset paging, ``KeysetLoader``); page-number and offset cursors
/// (``PageNumberLoader``, ``OffsetLoader``) work too, but are approximate when rows are
/// inserted or deleted meanwhile: a page reloaded by number may repeat rows (kept once)
/// or skip rows that moved across a page boundary.
///
/// All of the paginator's own waiting (retry delays, the loading indicator's delay) is
/// done on the injected clock; tests pass a `ManualClock`. A loader's waiting is its
/// own: ``HTTPPageLoader``'s timeout runs on real time. Every method
/// returns at once and may be called from any thread; observe progress with ``states()``
/// or ``statuses()``. The decisions are made by a value-type state machine; this class
/// only runs the tasks and timers it asks for.
///
/// ```swift
/// let players = ListDataSource<Player>()
/// let paginator = Paginator(dataSource: players, loader: HTTPPageLoader<Player>(url: url, mode: .cursor),
///                           maxLoadedRows: 500)
/// players.attach(tableAdapter, on: .main)
/// paginator.loadNextPage()
/// // in the table adapter, for each row shown:
/// paginator.itemDidAppear(at: row)
/// // from a live feed:
/// paginator.upsert(changedPlayers)
/// ```
public final class Paginator<Loader: PageLoader, C: Clock>: Sendable where C.Duration == Duration {
    /// The rows.
    public typealias Item = Loader.Item
    /// What names a page.
    public typealias Cursor = Loader.Cursor

    /// The list the pages go into.
    public let dataSource: ListDataSource<Item>
    /// Where the pages come from.
    public let loader: Loader
    /// The clock that times backoff and the loading indicator.
    public let clock: C
    /// How many rows at most may follow a visible row for it to load the next page (0:
    /// only the last row does).
    public let prefetchDistance: Int
    /// The most rows the paginator keeps before it drops pages at the far end of the
    /// window (see ``Paginator``); `nil` for no bound.
    public let maxLoadedRows: Int?
    /// How long a load must run before ``isShowingLoadingIndicator`` turns on.
    public let loadingIndicatorDelay: Duration
    /// When failed loads are retried automatically.
    public let retryPolicy: RetryPolicy

    let _shared: LockedState<_Shared>

    /// The mutable part, behind the mutex.
    struct _Shared {
        var machine: _PaginationStateMachine<Cursor>
        var status: PaginationStatus
        var loadTasks: [_Machine.Slot: Task<Void, Never>] = [:]
        var retryTimers: [_Machine.Slot: Task<Void, Never>] = [:]
        var indicatorTimer: Task<Void, Never>?
        /// The id of the last row reported visible, which finds it again after rows came
        /// or went before it.
        var visibleID: Item.ID?
        /// Tasks that apply a page's consequences or trim the window, not yet done.
        var windowWork = 0
        /// Load tasks not yet finished, cancelled ones included: a cancelled task may
        /// still be waiting for its loader.
        var runningLoads = 0
        /// How often pages were dropped at the top and at the bottom.
        var trims = [0, 0]
        /// The ledger versions of pages whose own `perform` dropped pages, until their
        /// follow-up has seen it (see ``Paginator/_trim(_:measuredAt:)``).
        var trimmedVersions: Set<Int> = []
        /// Live changes (``Paginator/upsert(_:)``, ``Paginator/remove(ids:)``) made while
        /// a page loads, in order: the item for an upserted id, `nil` for a removed one.
        /// The page may have been read before them, so they win over its copies (see
        /// ``Paginator/_apply(_:mode:on:)``). Emptied whenever nothing loads.
        var liveChanges: [(id: Item.ID, item: Item?)] = []
        /// For each slot's running load, how many ``liveChanges`` came before it started.
        var liveChangeMarks: [_PaginationStateMachine<Cursor>.Slot: Int] = [:]
        /// Called under the lock with each load the paginator starts, in the order it
        /// decides them, with `trims` as they then stand (tests follow passes with it).
        var loadStarted: (@Sendable (_ cursor: Cursor?, _ trims: [Int]) -> Void)?
        var observers: [Int: _Observer] = [:]
        var nextObserverID = 0
    }

    /// A subscriber of ``states()`` or ``statuses()``.
    enum _Observer {
        case states(AsyncStream<PaginationState>.Continuation, last: PaginationState)
        case statuses(AsyncStream<PaginationStatus>.Continuation)
    }

    /// Creates a paginator. It loads nothing until asked.
    ///
    /// - Parameters:
    ///   - dataSource: the list to fill; a new empty one by default.
    ///   - loader: where pages come from.
    ///   - prefetchDistance: how many rows at most may follow a visible row for it to
    ///     load the next page, or precede it to load the previous page (see
    ///     ``itemDidAppear(at:)``); 10 by default.
    ///   - maxLoadedRows: the most rows to keep, at least 1; `nil` (the default) keeps
    ///     every page. Make it a few pages more than twice `prefetchDistance`, so that a
    ///     visible row is never near both ends at once.
    ///   - loadingIndicatorDelay: how long a load must run before the loading indicator
    ///     shows; zero shows it at once. 300 ms by default.
    ///   - retryPolicy: automatic retries; ``RetryPolicy/default`` by default.
    ///   - clock: the clock for delays; tests pass a `ManualClock`.
    public init(
        dataSource: ListDataSource<Item> = ListDataSource<Item>(),
        loader: Loader,
        prefetchDistance: Int = 10,
        maxLoadedRows: Int? = nil,
        loadingIndicatorDelay: Duration = .milliseconds(300),
        retryPolicy: RetryPolicy = .default,
        clock: C
    ) {
        precondition(prefetchDistance >= 0, "prefetchDistance must not be negative, got \(prefetchDistance)")
        if let maxLoadedRows {
            precondition(maxLoadedRows >= 1, "maxLoadedRows must be at least 1, got \(maxLoadedRows)")
        }
        precondition(loadingIndicatorDelay >= .zero, "loadingIndicatorDelay must not be negative")
        self.dataSource = dataSource
        self.loader = loader
        self.clock = clock
        self.prefetchDistance = prefetchDistance
        self.maxLoadedRows = maxLoadedRows
        self.loadingIndicatorDelay = loadingIndicatorDelay
        self.retryPolicy = retryPolicy
        let machine = _PaginationStateMachine<Cursor>(
            retryPolicy: retryPolicy,
            prefetchDistance: prefetchDistance,
            showsIndicatorImmediately: loadingIndicatorDelay == .zero
        )
        _shared = LockedState(_Shared(machine: machine, status: machine.status))
    }

    deinit {
        let (tasks, observers) = _shared.withLock { shared in
            defer { shared.observers = [:] }
            return (Array(shared.loadTasks.values) + Array(shared.retryTimers.values) + [shared.indicatorTimer].compactMap { $0 }, Array(shared.observers.values))
        }
        for task in tasks { task.cancel() }
        for observer in observers { observer.finish() }
    }
}

extension Paginator where C == ContinuousClock {
    /// Creates a paginator that times its delays with the continuous clock.
    ///
    /// - Parameters:
    ///   - dataSource: the list to fill; a new empty one by default.
    ///   - loader: where pages come from.
    ///   - prefetchDistance: see ``itemDidAppear(at:)``; 10 by default.
    ///   - maxLoadedRows: the most rows to keep; `nil` (the default) keeps every page.
    ///   - loadingIndicatorDelay: how long a load runs before the indicator shows; 300 ms by default.
    ///   - retryPolicy: automatic retries; ``RetryPolicy/default`` by default.
    public convenience init(
        dataSource: ListDataSource<Item> = ListDataSource<Item>(),
        loader: Loader,
        prefetchDistance: Int = 10,
        maxLoadedRows: Int? = nil,
        loadingIndicatorDelay: Duration = .milliseconds(300),
        retryPolicy: RetryPolicy = .default
    ) {
        self.init(
            dataSource: dataSource,
            loader: loader,
            prefetchDistance: prefetchDistance,
            maxLoadedRows: maxLoadedRows,
            loadingIndicatorDelay: loadingIndicatorDelay,
            retryPolicy: retryPolicy,
            clock: ContinuousClock()
        )
    }
}


/// Loads pages from a ``PageLoader`` into a `ListDataSource`, one at a time, with
/// prefetch, automatic and manual retry, refresh and a delayed loading indicator.
///
/// Pages are added with `ListDataSource.add(_:)`, so rows stay sorted by the data
/// source's order and a row that arrives twice (it shifted into the next offset page)
/// is kept once. At most one request is in flight: ``loadNextPage()`` is ignored while a
/// page is loading or waiting to be retried, and after the last page. The exceptions are
/// ``refresh()`` and ``reset()``, which cancel a running request without waiting for it
/// to end, so that the next request starts at once: a loader that ignores cancellation
/// may briefly run both, and the older response is discarded.
///
/// - A failure keeps every loaded row. Errors that ``RetryPolicy/shouldRetry`` accepts
///   are retried with exponential backoff until ``RetryPolicy/maxAttempts``; then the
///   state is ``PaginationState/failed(_:)`` and ``retry()`` loads the same cursor again.
/// - ``refresh()`` loads the first page and applies it with
///   `ListDataSource.replaceAll(with:)`: the old rows stay visible until it arrives,
///   then renderers get one batch. A response to a request made before the refresh is
///   discarded, even if it arrives later. ``reset()`` empties the list.
/// - The list is ``PaginationState/exhausted`` after a page that names no next page,
///   and after one whose next cursor names a page already loaded (since the first page,
///   for `Hashable` cursors): a server that repeats a cursor would otherwise have the
///   same pages loaded forever.
/// - ``itemDidAppear(at:)`` loads the next page when at most ``prefetchDistance`` rows
///   follow the row that appeared (0: when the last row appears).
/// - ``isShowingLoadingIndicator`` turns on only when a load is still running after
///   ``loadingIndicatorDelay``, so fast loads never flash a loading row.
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
/// let paginator = Paginator(dataSource: players, loader: HTTPPageLoader<Player>(url: url, mode: .cursor))
/// players.attach(tableAdapter, on: .main)
/// paginator.loadNextPage()
/// // in the table adapter, for each row shown:
/// paginator.itemDidAppear(at: row)
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
    /// How long a load must run before ``isShowingLoadingIndicator`` turns on.
    public let loadingIndicatorDelay: Duration
    /// When failed loads are retried automatically.
    public let retryPolicy: RetryPolicy

    let _shared: LockedState<_Shared>

    /// The mutable part, behind the mutex.
    struct _Shared {
        var machine: _PaginationStateMachine<Cursor>
        var status: PaginationStatus
        var loadTask: Task<Void, Never>?
        var retryTimer: Task<Void, Never>?
        var indicatorTimer: Task<Void, Never>?
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
    ///     load the next page (see ``itemDidAppear(at:)``); 10 by default.
    ///   - loadingIndicatorDelay: how long a load must run before the loading indicator
    ///     shows; zero shows it at once. 300 ms by default.
    ///   - retryPolicy: automatic retries; ``RetryPolicy/default`` by default.
    ///   - clock: the clock for delays; tests pass a `ManualClock`.
    public init(
        dataSource: ListDataSource<Item> = ListDataSource<Item>(),
        loader: Loader,
        prefetchDistance: Int = 10,
        loadingIndicatorDelay: Duration = .milliseconds(300),
        retryPolicy: RetryPolicy = .default,
        clock: C
    ) {
        precondition(prefetchDistance >= 0, "prefetchDistance must not be negative, got \(prefetchDistance)")
        precondition(loadingIndicatorDelay >= .zero, "loadingIndicatorDelay must not be negative")
        self.dataSource = dataSource
        self.loader = loader
        self.clock = clock
        self.prefetchDistance = prefetchDistance
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
            return ([shared.loadTask, shared.retryTimer, shared.indicatorTimer].compactMap { $0 }, Array(shared.observers.values))
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
    ///   - loadingIndicatorDelay: how long a load runs before the indicator shows; 300 ms by default.
    ///   - retryPolicy: automatic retries; ``RetryPolicy/default`` by default.
    public convenience init(
        dataSource: ListDataSource<Item> = ListDataSource<Item>(),
        loader: Loader,
        prefetchDistance: Int = 10,
        loadingIndicatorDelay: Duration = .milliseconds(300),
        retryPolicy: RetryPolicy = .default
    ) {
        self.init(
            dataSource: dataSource,
            loader: loader,
            prefetchDistance: prefetchDistance,
            loadingIndicatorDelay: loadingIndicatorDelay,
            retryPolicy: retryPolicy,
            clock: ContinuousClock()
        )
    }
}

extension Paginator {
    /// Loads the next page, or the first page if none is loaded yet.
    ///
    /// Ignored while a page is loading or waiting for an automatic retry, and after the
    /// last page, so calling it for every scroll event is fine: each page is requested
    /// once. In ``PaginationState/failed(_:)`` it loads the failed page again, like ``retry()``.
    /// - Complexity: O(1); the load runs in a task.
    public func loadNextPage() {
        _handle { $0.loadRequested() }
    }

    /// Loads the page before the first loaded row.
    ///
    /// The counterpart of ``loadNextPage()`` at the top of the list: ignored while a
    /// previous page is loading or waiting for an automatic retry, and once the start of
    /// the list is loaded (``PaginationStatus/prepend`` is ``PaginationState/exhausted``,
    /// as it is until a page names a ``Page/previousCursor``). In
    /// ``PaginationState/failed(_:)`` it loads the failed page again. The next pages
    /// load meanwhile as usual: each direction has its own request.
    ///
    /// ```swift
    /// paginator.jump(to: "c_MTA3Nzg6cDAyMzEy")
    /// paginator.loadPreviousPage()   // the rows before the ones jumped to
    /// ```
    /// - Complexity: O(1); the load runs in a task.
    public func loadPreviousPage() {
        _handle { $0.loadPreviousRequested() }
    }

    /// Replaces every loaded row with the page at `cursor`, in one batch.
    ///
    /// The rows stay visible until the page arrives; then it is applied with
    /// `ListDataSource.replaceAll(with:)`, so renderers get one batch. Loads in flight,
    /// a refresh included, are cancelled, and their responses, should they still arrive,
    /// are discarded. Afterwards both directions go on from the new page: its
    /// ``Page/nextCursor`` and ``Page/previousCursor``. The last row reported visible is
    /// forgotten. A later jump supersedes an earlier one still loading. A cursor past
    /// either end of the list, whose page is empty, shows the page the loader names
    /// before that empty page (the last rows, for ``KeysetLoader``), or else the first
    /// page.
    ///
    /// ```swift
    /// paginator.jump(to: .before("p02000"))   // a KeysetLoader: the rows before p02000
    /// ```
    /// - Parameter cursor: the page to show; `nil` for the first page.
    /// - Complexity: O(1); the load runs in a task, and the rows are replaced on the data
    ///   source's diff queue.
    public func jump(to cursor: Cursor?) {
        _handle { $0.jumpRequested(to: cursor) }
    }

    /// Loads the page that failed again, with the same cursor; in each direction that
    /// failed.
    ///
    /// In ``PaginationState/failed(_:)`` this starts a new series of attempts under the
    /// retry policy; while an automatic retry is waiting it retries at once. Ignored
    /// otherwise. A failed refresh or jump is retried instead, while it is pending.
    /// - Complexity: O(1); the load runs in a task.
    public func retry() {
        _handle { $0.retryRequested() }
    }

    /// Loads the first page again and replaces the rows with it when it arrives.
    ///
    /// The rows stay visible meanwhile, and renderers get one batch when the page is
    /// applied with `ListDataSource.replaceAll(with:)`. A load in flight is cancelled
    /// and its response, should it still arrive, is discarded. After the refresh, the
    /// next page is the one after the new first page. Ignored while a refresh is running.
    /// - Complexity: O(1); the load runs in a task, and the rows are replaced on the data
    ///   source's diff queue.
    public func refresh() {
        _handle { $0.refreshRequested() }
    }

    /// Cancels any load, removes every row and returns to ``PaginationState/idle``;
    /// the next load is the first page. Responses to earlier requests are discarded.
    /// The cancelled request is not waited for: a load started right after may run
    /// beside it, if the loader ignores cancellation.
    /// - Complexity: O(1); the rows are removed on the data source's diff queue, in
    ///   O(*n*) for *n* rows.
    public func reset() {
        _handle { $0.resetRequested() }
    }

    /// Tells the paginator that the row at `offset` became visible; loads the next page
    /// when that direction is idle and at most ``prefetchDistance`` rows follow the row
    /// (`dataSource.count - 1 - offset <= prefetchDistance`): with a distance of 0, when
    /// the last row shows. Likewise loads the previous page when that direction is idle
    /// (the start is not reached) and at most ``prefetchDistance`` rows precede the row
    /// (`offset <= prefetchDistance`).
    ///
    /// Call it from the renderer for every row it shows. A failed load is not retried
    /// from here (that would hammer a failing server while the user scrolls); use
    /// ``retry()``. The count is the data source's delivered `ListDataSource.count`.
    ///
    /// The paginator remembers the last row reported (until ``refresh()``, ``jump(to:)``
    /// or ``reset()``), by id: once a page is applied, if that row is still within the
    /// distance of an end (the page brought fewer rows, or only rows already loaded), the
    /// page after it at that end loads, since no new row appears to ask for it. A window
    /// (``maxLoadedRows``) drops pages at the end farther from that row.
    /// - Parameter offset: the row's offset in the list, not negative.
    /// - Complexity: O(1).
    public func itemDidAppear(at offset: Int) {
        precondition(offset >= 0, "itemDidAppear(at:) needs a row offset, got \(offset)")
        let snapshot = dataSource.snapshot
        let id = offset < snapshot.count ? snapshot[offset].id : nil
        _handleShared { shared in
            shared.visibleID = id
            return shared.machine.itemAppeared(at: offset, count: snapshot.count)
        }
    }

    /// Whether a visible row at `offset` of a list of `count` rows is close enough to
    /// the end for ``itemDidAppear(at:)`` to load the next page: at most
    /// ``prefetchDistance`` rows follow it.
    ///
    /// For a renderer that knows its own row count and calls ``itemDidAppear(at:)`` only
    /// near the end; the paginator still decides by the data source's count.
    /// - Parameters:
    ///   - offset: the row's offset.
    ///   - count: the number of rows the list has.
    /// - Returns: whether at most ``prefetchDistance`` rows follow the row at `offset`.
    /// - Complexity: O(1).
    public func isWithinPrefetchDistance(_ offset: Int, of count: Int) -> Bool {
        _PaginationStateMachine<Cursor>.isWithin(prefetchDistance, ofTheEndFrom: offset, count: count)
    }

    /// The current state.
    ///
    /// - Complexity: O(1).
    public var state: PaginationState { _shared.withLock { $0.status.state } }

    /// Whether a "loading" row should be shown: a load has been running for longer
    /// than ``loadingIndicatorDelay``. Turns off as soon as the load ends.
    ///
    /// - Complexity: O(1).
    public var isShowingLoadingIndicator: Bool { _shared.withLock { $0.status.isShowingLoadingIndicator } }

    /// The state, the indicator flag and the counters as one value.
    ///
    /// - Complexity: O(1).
    public var status: PaginationStatus { _shared.withLock { $0.status } }
}

import ListEngineTesting
import ListPagination
import ListTestSupport
import Testing

/// The paginator driving a scripted loader on a manual clock.
@Suite(.timeLimit(.minutes(5))) struct PaginatorTests {
    static let noRetry = RetryPolicy.none

    static func make(
        loader: ScriptedLoader = ScriptedLoader(),
        prefetch: Int = 5,
        indicatorDelay: Duration = .milliseconds(300),
        retry: RetryPolicy = noRetry
    ) -> (Paginator<ScriptedLoader, ManualClock>, ScriptedLoader, ManualClock) {
        let clock = ManualClock()
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(),
            loader: loader,
            prefetchDistance: prefetch,
            loadingIndicatorDelay: indicatorDelay,
            retryPolicy: retry,
            clock: clock
        )
        return (paginator, loader, clock)
    }

    @Test func pagesAreAddedSortedAndShiftedRowsAreKeptOnce() async throws {
        // An in-memory server paged by offset; rows are inserted ahead of the offset
        // between pages, so the second page repeats rows of the first.
        let server = LockedState((0..<100).map { TestRow(id: $0, key: 1_000 + $0) })
        let loader = OffsetLoader<TestRow>(limit: 10) { offset, limit in
            server.withLock { rows in
                let page = Array(rows[min(offset, rows.count)..<min(offset + limit, rows.count)])
                return .init(items: page.shuffled(), totalItems: rows.count)
            }
        }
        let paginator = Paginator(dataSource: ListDataSource<TestRow>(), loader: loader, retryPolicy: .none, clock: ManualClock())
        paginator.loadNextPage()
        await paginator.settle()
        server.withLock { $0.insert(contentsOf: (0..<3).map { TestRow(id: 500 + $0, key: $0) }, at: 0) }
        paginator.loadNextPage()
        await paginator.settle()
        let rows = Array(await paginator.dataSource.flush())
        #expect(rows.map(\.id) == Array(0..<17), "rows 7, 8, 9 came twice and must be kept once")
        #expect(rows == rows.sorted(by: <))
        #expect(Set(rows.map(\.id)).count == rows.count)
    }

    @Test func thousandsOfCallsMakeOneRequestPerPage() async throws {
        let (paginator, loader, _) = Self.make()
        for page in 0..<3 {
            await withTaskGroup(of: Void.self) { group in
                for call in 0..<1_000 {
                    group.addTask {
                        if call % 2 == 0 { paginator.loadNextPage() } else { paginator.itemDidAppear(at: max(0, paginator.dataSource.count - 1)) }
                    }
                }
            }
            #expect(paginator.state == .loading)
            let request = await loader.nextRequest()
            #expect(request.cursor == (page == 0 ? nil : page))
            #expect(loader.requestedCursors.count == page + 1)
            request.succeed(ids: page * 10..<page * 10 + 10, next: page == 2 ? nil : page + 1)
            await paginator.settle()
            await paginator.dataSource.flush()
        }
        #expect(paginator.state == .exhausted)
        for _ in 0..<1_000 { paginator.loadNextPage() }
        #expect(paginator.state == .exhausted)
        #expect(loader.requestedCursors == [nil, 1, 2])
        #expect(paginator.dataSource.count == 30)
    }

    @Test func failedLoadKeepsRowsAndRetryLoadsTheSameCursor() async throws {
        let (paginator, loader, _) = Self.make()
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: 42)
        await paginator.settle()
        paginator.loadNextPage()
        let failing = await loader.nextRequest()
        #expect(failing.cursor == 42)
        failing.fail(PaginationError.httpStatus(code: 503, url: URL(string: "http://example.test/rows?page=42")!))
        let status = await paginator.settle()
        #expect(status.state == .failed(.httpStatus(code: 503, url: URL(string: "http://example.test/rows?page=42")!)))
        #expect(status.failedAttempts == 1)
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<10))
        // Scrolling near the end does not retry by itself.
        paginator.itemDidAppear(at: 9)
        #expect(paginator.state == .failed(.httpStatus(code: 503, url: URL(string: "http://example.test/rows?page=42")!)))
        paginator.retry()
        #expect(paginator.state == .loading)
        let retried = await loader.nextRequest()
        #expect(retried.cursor == 42)
        retried.succeed(ids: 10..<20, next: nil)
        #expect(await paginator.settle().state == .exhausted)
        #expect(loader.requestedCursors == [nil, 42, 42])
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<20))
    }

    @Test func loaderErrorsBecomeTypedErrors() async throws {
        let (paginator, loader, _) = Self.make()
        paginator.loadNextPage()
        await loader.nextRequest().fail(TestFailure())
        #expect(await paginator.settle().state == .failed(.loader(LoaderFailure(TestFailure()))))
        paginator.loadNextPage()
        await loader.nextRequest().fail(CancellationError())
        #expect(await paginator.settle().state == .failed(.cancelled))
    }

    @Test func retryPolicyRetriesWithExponentialBackoffBeforeFailing() async throws {
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)
        let (paginator, loader, clock) = Self.make(indicatorDelay: .zero, retry: policy)
        let error = PaginationError.transport(url: nil, description: "connection reset")
        paginator.loadNextPage()
        await loader.nextRequest().fail(error)
        await paginator.waitForStatus { $0.failedAttempts == 1 }
        #expect(paginator.state == .loading)
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        // Backing off: no request, however often asked.
        for _ in 0..<100 { paginator.loadNextPage() }
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        #expect(loader.requestedCursors.count == 1)
        clock.advance(by: .milliseconds(1))
        let second = await loader.nextRequest()
        #expect(second.cursor == nil)
        second.fail(error)
        await clock.waitForSleepers(count: 1)
        #expect(clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(2))
        await loader.nextRequest().fail(error)
        let failed = await paginator.settle()
        #expect(failed.state == .failed(error))
        #expect(failed.failedAttempts == 3)
        #expect(clock.sleeperCount == 0)
        #expect(loader.requestedCursors == [nil, nil, nil])
    }

    @Test func retryDuringBackoffLoadsAtOnce() async throws {
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(10), jitter: 0)
        let (paginator, loader, clock) = Self.make(indicatorDelay: .zero, retry: policy)
        paginator.loadNextPage()
        await loader.nextRequest().fail(PaginationError.timedOut(url: nil))
        await clock.waitForSleepers(count: 1)
        paginator.retry()
        await loader.nextRequest().succeed(ids: 0..<5, next: nil)
        #expect(await paginator.settle().state == .exhausted)
        #expect(clock.sleeperCount == 0, "the backoff timer is cancelled")
    }

    @Test func refreshKeepsRowsUntilTheFirstPageArrivesThenReplacesInOneBatch() async throws {
        let (paginator, loader, _) = Self.make(loader: ScriptedLoader(honorsCancellation: false))
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: 1)
        await paginator.settle()
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 10..<20, next: 2)
        await paginator.settle()
        paginator.loadNextPage()
        let stale = await loader.nextRequest()  // page 3, superseded by the refresh below
        #expect(stale.cursor == 2)

        let recorder = BatchRecorder<TestRow>()
        paginator.dataSource.attach(recorder)
        await paginator.dataSource.flush()
        _ = recorder.take()  // the attach batch

        paginator.refresh()
        #expect(paginator.status.isRefreshing)
        let refresh = await loader.nextRequest()
        #expect(refresh.cursor == nil)
        // The stale page arrives first: discarded; the rows are still the old ones.
        stale.succeed(ids: 20..<30, next: 3)
        await paginator.dataSource.flush()
        #expect(paginator.dataSource.count == 20)
        #expect(recorder.take().isEmpty)

        // The new first page: rows 5..<15 (0..<5 gone, 10..<15 re-keyed).
        let fresh = (5..<10).map { TestRow(id: $0, key: $0) } + (10..<15).map { TestRow(id: $0, key: $0 - 100) }
        refresh.succeed(fresh, next: 1)
        #expect(await paginator.settle() == PaginationStatus(state: .idle, loadedPages: 1))
        let rows = await paginator.dataSource.flush()
        #expect(rows.map(\.id) == [10, 11, 12, 13, 14, 5, 6, 7, 8, 9])
        let batches = recorder.take()
        #expect(batches.count == 1)
        #expect(batches.first?.deletions == [0, 1, 2, 3, 4, 15, 16, 17, 18, 19])

        // The next page follows the refreshed first page.
        paginator.loadNextPage()
        #expect(await loader.nextRequest().cursor == 1)
    }

    @Test func aResponseFromBeforeARefreshIsDiscardedEvenWhenItArrivesLast() async throws {
        let (paginator, loader, _) = Self.make(loader: ScriptedLoader(honorsCancellation: false))
        paginator.loadNextPage()
        let stale = await loader.nextRequest()
        paginator.refresh()
        let refresh = await loader.nextRequest()
        refresh.succeed(ids: 100..<105, next: nil)
        #expect(await paginator.settle().state == .exhausted)
        stale.succeed(ids: 0..<10, next: 1)
        stale.fail(TestFailure())  // no effect either
        paginator.loadNextPage()
        #expect(paginator.state == .exhausted)
        #expect(await paginator.dataSource.flush().map(\.id) == Array(100..<105))
    }

    @Test func resetEmptiesTheListAndStartsOver() async throws {
        let (paginator, loader, _) = Self.make(loader: ScriptedLoader(honorsCancellation: false))
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: 1)
        await paginator.settle()
        paginator.loadNextPage()
        let stale = await loader.nextRequest()
        paginator.reset()
        #expect(paginator.status == PaginationStatus(state: .idle))
        #expect(await paginator.dataSource.flush().isEmpty)
        stale.succeed(ids: 10..<20, next: 2)
        #expect(await paginator.dataSource.flush().isEmpty)
        #expect(paginator.state == .idle)
        paginator.loadNextPage()
        #expect(await loader.nextRequest().cursor == nil)
    }

    @Test func resetCancelsTheLoadInFlight() async throws {
        let (paginator, loader, _) = Self.make()
        paginator.loadNextPage()
        _ = await loader.nextRequest()
        paginator.reset()
        // The honoring loader saw the cancellation and answered; nothing waits any more.
        while loader.unansweredCount > 0 { await Task.yield() }
        #expect(paginator.state == .idle)
    }

    @Test func aLoadRightAfterResetDoesNotWaitForTheCancelledRequest() async throws {
        let (paginator, loader, _) = Self.make(loader: ScriptedLoader(honorsCancellation: false))
        paginator.loadNextPage()
        let cancelled = await loader.nextRequest()
        paginator.reset()
        paginator.loadNextPage()
        let fresh = await loader.nextRequest()
        // As documented: the loader ignored the cancellation, so both are in flight.
        #expect(loader.unansweredCount == 2)
        cancelled.succeed(ids: 100..<110, next: 1)
        fresh.succeed(ids: 0..<5, next: nil)
        #expect(await paginator.settle().state == .exhausted)
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<5))
    }

    @Test func anAutomaticRetryFiresWhenTheClockReachesItsDelay() async throws {
        let policy = RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(300), jitter: 0)
        let (paginator, loader, clock) = Self.make(indicatorDelay: .zero, retry: policy)
        paginator.loadNextPage()
        await loader.nextRequest().fail(PaginationError.timedOut(url: nil))
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .milliseconds(300))
        await loader.nextRequest().succeed(ids: 0..<3, next: nil)
        #expect(await paginator.settle().state == .exhausted)
        #expect(loader.requestedCursors == [nil, nil])
    }

    @Test func itemDidAppearLoadsWithinThePrefetchDistance() async throws {
        let (paginator, loader, _) = Self.make(prefetch: 5)
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<20, next: 1)
        await paginator.settle()
        await paginator.dataSource.flush()
        for offset in 0..<14 {
            paginator.itemDidAppear(at: offset)
            #expect(paginator.state == .idle, "offset \(offset) has \(19 - offset) rows after it")
        }
        #expect(!paginator.isWithinPrefetchDistance(13, of: 20))
        #expect(paginator.isWithinPrefetchDistance(14, of: 20))
        #expect(paginator.isWithinPrefetchDistance(19, of: 20))
        paginator.itemDidAppear(at: 14)
        #expect(paginator.state == .loading)
        #expect(await loader.nextRequest().cursor == 1)
        #expect(loader.requestedCursors == [nil, 1])
    }

    @Test func loadingIndicatorTurnsOnOnlyAfterTheDelay() async throws {
        let (paginator, loader, clock) = Self.make(indicatorDelay: .milliseconds(300))
        paginator.loadNextPage()
        let request = await loader.nextRequest()
        await clock.waitForSleepers(count: 1)
        #expect(!paginator.isShowingLoadingIndicator)
        clock.advance(by: .milliseconds(299))
        #expect(clock.sleeperCount == 1)
        #expect(!paginator.isShowingLoadingIndicator)
        clock.advance(by: .milliseconds(1))
        await paginator.waitForStatus(\.isShowingLoadingIndicator)
        request.succeed(ids: 0..<10, next: 1)
        let done = await paginator.settle()
        #expect(done == PaginationStatus(state: .idle, isShowingLoadingIndicator: false, loadedPages: 1))
    }

    /// A paginator with a prefetch distance of 3 whose first page, rows 0 to 9 with
    /// page 1 next, is in and delivered.
    static func makeWithFirstPage() async -> (Paginator<ScriptedLoader, ManualClock>, ScriptedLoader) {
        let (paginator, loader, _) = make(prefetch: 3)
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: 1)
        await paginator.settle()
        _ = await paginator.dataSource.flush()
        return (paginator, loader)
    }

    @Test func aPageOfRowsAlreadyLoadedLoadsTheNextWhileTheLastRowShownIsStillNearTheEnd() async throws {
        let (paginator, loader) = await Self.makeWithFirstPage()
        paginator.itemDidAppear(at: 8)  // two rows follow: within 3 of the end
        // The second page repeats rows already loaded: the list does not grow, no new
        // row appears, and the paginator goes on by itself.
        let second = await loader.nextRequest()
        #expect(second.cursor == 1)
        second.succeed(ids: 5..<10, next: 2)
        // Bounded, so that a paginator that never goes on fails here instead of waiting.
        await waitUntil("the third page is asked for") { loader.requestedCursors.count >= 3 }
        try #require(loader.requestedCursors == [nil, 1, 2])
        let third = await loader.nextRequest()
        // A page that takes the end more than 3 rows past row 8 stops it.
        third.succeed(ids: 10..<14, next: 3)
        let settled = await paginator.settle()
        _ = await paginator.dataSource.flush()
        #expect(settled.state == .idle)
        #expect(paginator.dataSource.count == 14)
        for _ in 0..<50 { await Task.yield() }
        #expect(loader.requestedCursors == [nil, 1, 2])
    }

    @Test func afterAResetNoRowCountsAsShownUntilOneIsReported() async throws {
        let (paginator, loader) = await Self.makeWithFirstPage()
        paginator.itemDidAppear(at: 9)
        await loader.nextRequest().succeed(ids: 10..<20, next: 2)
        await paginator.settle()
        paginator.reset()
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<2, next: 1)  // two rows: row 9 would be near their end
        await paginator.settle()
        _ = await paginator.dataSource.flush()
        for _ in 0..<50 { await Task.yield() }
        #expect(loader.requestedCursors == [nil, 1, nil])
    }

    @Test func theIndicatorDelayCountsFromTheStartOfTheLoadNotFromWhenItsTimerFirstRuns() async throws {
        let clock = GatedClock()
        let loader = ScriptedLoader()
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(), loader: loader,
            loadingIndicatorDelay: .milliseconds(300), retryPolicy: Self.noRetry, clock: clock
        )
        clock.close()
        clock.exempt { paginator.loadNextPage() }  // t = 0: the load starts
        clock.base.advance(by: .milliseconds(250))  // before the timer's task has read the clock
        clock.open()
        let request = await loader.nextRequest()
        await clock.base.waitForSleepers(count: 1)
        #expect(clock.base.pendingDeadlines == [ManualClock.Instant(offset: .milliseconds(300))])
        clock.base.advance(by: .milliseconds(50))  // the load has lasted 300 ms
        await paginator.waitForStatus(\.isShowingLoadingIndicator)
        request.succeed(ids: 0..<10, next: nil)
        #expect(await paginator.settle().state == .exhausted)
    }

    @Test func aFastLoadNeverShowsTheIndicator() async throws {
        let (paginator, loader, clock) = Self.make(indicatorDelay: .milliseconds(300))
        let seen = LockedState<[PaginationStatus]>([])
        let statuses = paginator.statuses()
        let watcher = Task {
            for await status in statuses {
                seen.withLock { $0.append(status) }
                if status.state == .exhausted { return }
            }
        }
        paginator.loadNextPage()
        await loader.nextRequest().succeed(ids: 0..<10, next: nil)
        await watcher.value
        #expect(clock.sleeperCount == 0, "the indicator timer is cancelled when the load ends")
        clock.advance(by: .seconds(1))
        #expect(!paginator.isShowingLoadingIndicator)
        #expect(seen.withLock { $0 }.allSatisfy { !$0.isShowingLoadingIndicator })
    }

    @Test func zeroDelayShowsTheIndicatorWhileLoading() async throws {
        let (paginator, loader, _) = Self.make(indicatorDelay: .zero)
        paginator.loadNextPage()
        #expect(paginator.isShowingLoadingIndicator)
        await loader.nextRequest().succeed(ids: 0..<1, next: nil)
        #expect(await paginator.settle().isShowingLoadingIndicator == false)
    }

    @Test func statesStreamReportsEveryTransition() async throws {
        let (paginator, loader, _) = Self.make()
        var states = paginator.states().makeAsyncIterator()
        #expect(await states.next() == .idle)
        paginator.loadNextPage()
        #expect(await states.next() == .loading)
        await loader.nextRequest().succeed(ids: 0..<10, next: 1)
        #expect(await states.next() == .idle)
        paginator.loadNextPage()
        #expect(await states.next() == .loading)
        await loader.nextRequest().fail(PaginationError.timedOut(url: nil))
        #expect(await states.next() == .failed(.timedOut(url: nil)))
        paginator.retry()
        #expect(await states.next() == .loading)
        await loader.nextRequest().succeed(ids: 10..<20, next: nil)
        #expect(await states.next() == .exhausted)
    }

    @Test func streamsFinishWhenThePaginatorGoesAway() async throws {
        var paginator: Paginator<ScriptedLoader, ManualClock>? = Self.make().0
        let stream = try #require(paginator).states()
        paginator = nil
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 1)
    }

    @Test func aServerThatRepeatsItsCursorEndsTheListInsteadOfLoadingForever() async throws {
        // Pages c0 → c1 → c2, and c2 names c1 again.
        let fetched = LockedState<[String?]>([])
        let loader = CursorLoader<TestRow, String>(limit: 10) { cursor, limit in
            fetched.withLock { $0.append(cursor) }
            let page = cursor.flatMap { Int($0.dropFirst()) } ?? 0
            let rows = (page * limit..<(page + 1) * limit).map { TestRow(id: $0, key: $0) }
            return .init(items: rows, nextCursor: page == 2 ? "c1" : "c\(page + 1)")
        }
        let paginator = Paginator(dataSource: ListDataSource<TestRow>(), loader: loader, retryPolicy: .none, clock: ManualClock())
        for _ in 0..<10 {
            paginator.loadNextPage()
            await paginator.settle()
        }
        #expect(paginator.state == .exhausted)
        #expect(fetched.withLock { $0 } == [nil, "c1", "c2"])
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<30))
    }

    @Test func continuationLoaderWalksAndRetriesTheSameClosure() async throws {
        let calls = LockedState<[Int]>([])
        let failOnce = LockedState(true)
        @Sendable func page(from start: Int) -> ContinuationPage<TestRow>.Next {
            {
                calls.withLock { $0.append(start) }
                let fails = start == 10 && failOnce.withLock { pending in
                    defer { pending = false }
                    return pending
                }
                if fails { throw TestFailure() }
                let rows = (start..<start + 10).map { TestRow(id: $0, key: $0) }
                return ContinuationPage(items: rows, next: start + 10 < 30 ? page(from: start + 10) : nil)
            }
        }
        let paginator = Paginator(loader: ContinuationLoader(first: page(from: 0)), retryPolicy: .none, clock: ManualClock())
        paginator.loadNextPage()
        await paginator.settle()
        paginator.loadNextPage()
        #expect(await paginator.settle().state == .failed(.loader(LoaderFailure(TestFailure()))))
        paginator.retry()
        await paginator.settle()
        paginator.loadNextPage()
        #expect(await paginator.settle().state == .exhausted)
        #expect(calls.withLock { $0 } == [0, 10, 10, 20])
        #expect(await paginator.dataSource.flush().map(\.id) == Array(0..<30))
    }
}

import struct Foundation.URL

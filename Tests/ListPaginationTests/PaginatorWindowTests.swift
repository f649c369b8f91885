import ListEngineTesting
@testable import ListPagination
import ListTestSupport
import Testing

/// The paginator in both directions, jumping, with live changes and a bound on its rows,
/// driving a scripted loader whose page *n* holds rows 10*n*…10*n* + 9 (key = id).
@Suite(.timeLimit(.minutes(5))) struct PaginatorWindowTests {
    static func make(prefetch: Int = 3, maxRows: Int? = nil, retry: RetryPolicy = .none) -> (Paginator<ScriptedLoader, ManualClock>, ScriptedLoader) {
        let loader = ScriptedLoader()
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(), loader: loader, prefetchDistance: prefetch, maxLoadedRows: maxRows,
            loadingIndicatorDelay: .zero, retryPolicy: retry, clock: ManualClock()
        )
        return (paginator, loader)
    }

    /// Answers the next request, which must be for page `page`, with that page.
    static func answer(_ loader: ScriptedLoader, page: Int, last: Int = 99) async {
        let request = await loader.nextRequest()
        #expect(request.cursor == page)
        request.succeed(ids: page * 10..<page * 10 + 10, next: page < last ? page + 1 : nil, previous: page > 0 ? page - 1 : nil)
    }

    /// Waits until the paginator is quiet (no load running, nothing left to trim) and its
    /// changes are delivered; records an issue if it does not get quiet within 30 seconds.
    static func quiet<L, C>(_ paginator: Paginator<L, C>, sourceLocation: SourceLocation = #_sourceLocation) async -> [L.Item] {
        await waitUntil("the paginator is quiet", sourceLocation: sourceLocation) { paginator._isQuiet }
        return Array(await paginator.dataSource.flush())
    }

    @Test func aJumpReplacesEveryRowInOneBatchAndPagingGoesOnBothWays() async throws {
        let (paginator, loader) = Self.make()
        paginator.loadNextPage()
        let first = await loader.nextRequest()
        first.succeed(ids: 0..<10, next: 1)
        #expect(await paginator.settle() == PaginationStatus(state: .idle, prepend: .exhausted, loadedPages: 1))
        let recorder = BatchRecorder<TestRow>()
        paginator.dataSource.attach(recorder)
        await paginator.dataSource.flush()
        _ = recorder.take()

        paginator.jump(to: 5)
        #expect(paginator.status.append == .loading && paginator.status.prepend == .loading)
        #expect(await paginator.dataSource.flush().count == 10, "the rows stay until the page arrives")
        await Self.answer(loader, page: 5)
        #expect(await paginator.settle() == PaginationStatus(state: .idle, prepend: .idle, loadedPages: 1))
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<60))
        #expect(recorder.take().count == 1)

        paginator.itemDidAppear(at: 1)  // one row above: the page before loads
        await Self.answer(loader, page: 4)
        #expect(await Self.quiet(paginator).map(\.id) == Array(40..<60))
        paginator.itemDidAppear(at: 19)
        await Self.answer(loader, page: 6)
        #expect(await Self.quiet(paginator).map(\.id) == Array(40..<70))
        #expect(loader.requestedCursors == [nil, 5, 4, 6])
    }

    @Test func aResponseFromBeforeAJumpIsDiscarded() async throws {
        let loader = ScriptedLoader(honorsCancellation: false)
        let paginator = Paginator(dataSource: ListDataSource<TestRow>(), loader: loader, retryPolicy: .none, clock: ManualClock())
        paginator.loadNextPage()
        let stale = await loader.nextRequest()
        paginator.jump(to: 7)
        let jump = await loader.nextRequest()
        jump.succeed(ids: 70..<80, next: 8, previous: 6)
        await paginator.settle()
        stale.succeed(ids: 0..<10, next: 1)
        #expect(await Self.quiet(paginator).map(\.id) == Array(70..<80))
        paginator.loadPreviousPage()
        #expect(await loader.nextRequest().cursor == 6)
    }

    @Test func thousandsOfCallsMakeOneRequestPerDirection() async throws {
        let (paginator, loader) = Self.make(prefetch: 20)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        await withTaskGroup(of: Void.self) { group in
            for call in 0..<1_000 {
                group.addTask {
                    switch call % 4 {
                    case 0: paginator.loadNextPage()
                    case 1: paginator.loadPreviousPage()
                    case 2: paginator.itemDidAppear(at: 0)
                    default: paginator.itemDidAppear(at: 9)
                    }
                }
            }
        }
        #expect(paginator.status.append == .loading && paginator.status.prepend == .loading)
        let requests = [await loader.nextRequest(), await loader.nextRequest()]
        #expect(Set(requests.map(\.cursor)) == [4, 6])
        #expect(loader.requestedCursors.count == 3)
    }

    @Test func aFailureInOneDirectionKeepsEveryRowAndLeavesTheOtherWorking() async throws {
        let (paginator, loader) = Self.make(prefetch: 5)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        paginator.loadPreviousPage()
        await loader.nextRequest().fail(PaginationError.timedOut(url: nil))
        await paginator.waitForStatus { $0.prepend == .failed(.timedOut(url: nil)) }
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<60))
        paginator.itemDidAppear(at: 0)  // does not retry the failed direction…
        paginator.itemDidAppear(at: 9)  // …and the other goes on
        await Self.answer(loader, page: 6)
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<70))
        #expect(paginator.status.prepend == .failed(.timedOut(url: nil)) && paginator.status.append == .idle)
        paginator.retry()
        await Self.answer(loader, page: 4)
        #expect(await Self.quiet(paginator).map(\.id) == Array(40..<70))
        #expect(loader.requestedCursors == [5, 4, 6, 4])
    }

    @Test func eachDirectionBacksOffOnItsOwnOnTheClock() async throws {
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0)
        let loader = ScriptedLoader()
        let clock = ManualClock()
        let paginator = Paginator(
            dataSource: ListDataSource<TestRow>(), loader: loader, prefetchDistance: 3,
            loadingIndicatorDelay: .zero, retryPolicy: policy, clock: clock
        )
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        paginator.loadPreviousPage()
        await loader.nextRequest().fail(PaginationError.timedOut(url: nil))
        await clock.waitForSleepers(count: 1)
        #expect(paginator.status.prepend == .loading && paginator.status.prependFailedAttempts == 1)
        // The next pages load meanwhile, and fail on their own schedule.
        paginator.loadNextPage()
        let next = await loader.nextRequest()
        #expect(next.cursor == 6)
        clock.advance(by: .milliseconds(500))
        next.fail(PaginationError.timedOut(url: nil))
        await clock.waitForSleepers(count: 2)
        #expect(clock.pendingDeadlines.sorted() == [ManualClock.Instant(offset: .seconds(1)), ManualClock.Instant(offset: .milliseconds(1_500))])
        clock.advance(by: .milliseconds(500))
        await Self.answer(loader, page: 4)  // the previous page's retry, at 1 s
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(500))
        await Self.answer(loader, page: 6)  // the next page's retry, at 1.5 s
        #expect(await Self.quiet(paginator).map(\.id) == Array(40..<70))
        #expect(paginator.status == PaginationStatus(state: .idle, prepend: .idle, loadedPages: 3))
        #expect(loader.requestedCursors == [5, 4, 6, 4, 6])
    }

    @Test func pagesPastTheBoundGoFromTheFarEndInOneBatchAndLoadAgainWhenScrolledBack() async throws {
        let (paginator, loader) = Self.make(prefetch: 2, maxRows: 25)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        let recorder = BatchRecorder<TestRow>()
        paginator.dataSource.attach(recorder)
        _ = await Self.quiet(paginator)
        _ = recorder.take()
        paginator.itemDidAppear(at: 8)
        await Self.answer(loader, page: 6)
        _ = await Self.quiet(paginator)
        paginator.itemDidAppear(at: 18)
        await Self.answer(loader, page: 7)
        // 30 rows, the visible one near the bottom: page 5 goes, in page 7's batch, so
        // no batch holds more than 25 rows.
        #expect(await Self.quiet(paginator).map(\.id) == Array(60..<80))
        let batches = recorder.take()
        #expect(batches.map(\.deletions) == [[], Array(0..<10)])
        #expect(batches.last?.insertions == Array(10..<20))
        #expect(batches.allSatisfy { $0.new.count <= 25 })
        #expect(paginator.status.prepend == .idle)
        // Scrolling back up loads page 5 again, and page 7 goes.
        paginator.itemDidAppear(at: 1)
        await Self.answer(loader, page: 5)
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<70))
        #expect(paginator.status.append == .idle)
        paginator.itemDidAppear(at: 18)
        #expect(await loader.nextRequest().cursor == 7)
    }

    @Test func theVisibleRowsPageIsNeverDropped() async throws {
        let (paginator, loader) = Self.make(prefetch: 2, maxRows: 5)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        paginator.itemDidAppear(at: 8)
        await Self.answer(loader, page: 6)
        // Row 58 is visible and near the top of 20 rows: page 6 goes, page 5 stays
        // although it alone is more than the bound.
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<60))
    }

    @Test func liveChangesGoThroughTheWindow() async throws {
        let (paginator, loader) = Self.make()
        paginator.upsert([TestRow(id: 1_000, key: 55)])
        #expect(await Self.quiet(paginator).isEmpty, "nothing is loaded: the window is empty")
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        paginator.upsert([
            TestRow(id: 1_001, key: 55),  // inside: added
            TestRow(id: 1_002, key: 500),  // outside: ignored
            TestRow(id: 52, key: 900),  // a loaded row moves outside: removed
            TestRow(id: 53, key: 54, payload: 1),  // a loaded row moves inside: updated
        ])
        paginator.remove(ids: [57, 4_000])
        let rows = await Self.quiet(paginator)
        #expect(rows.map(\.id) == [50, 51, 53, 54, 55, 1_001, 56, 58, 59], "ties keep arrival order")
        #expect(rows.first { $0.id == 53 }?.payload == 1)
        // At a reached end the window is open.
        paginator.itemDidAppear(at: 8)
        let last = await loader.nextRequest()
        last.succeed(ids: 60..<65, next: nil, previous: 5)
        _ = await Self.quiet(paginator)
        paginator.upsert([TestRow(id: 1_003, key: 10_000), TestRow(id: 1_004, key: 10)])
        let after = await Self.quiet(paginator)
        #expect(after.last?.id == 1_003)
        #expect(!after.contains { $0.id == 1_004 })
    }

    /// `apply(upserting:removing:)`: the same window rules as `upsert` and `remove(ids:)`,
    /// in one batch; an id in both is removed; it wins over a page loading meanwhile.
    @Test func upsertsAndRemovalsTogetherAreOneBatch() async throws {
        let (paginator, loader) = Self.make()
        let recorder = BatchRecorder<TestRow>()
        paginator.dataSource.attach(recorder)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        _ = recorder.take()
        paginator.apply(
            upserting: [
                TestRow(id: 1_001, key: 55),  // inside: added
                TestRow(id: 1_002, key: 500),  // outside: ignored
                TestRow(id: 52, key: 900),  // a loaded row moves outside: removed
                TestRow(id: 53, key: 54, payload: 1),  // a loaded row moves inside: updated
                TestRow(id: 54, key: 54, payload: 2),  // also removed below: removed
            ],
            removing: [57, 54, 4_000]
        )
        let rows = await Self.quiet(paginator)
        #expect(rows.map(\.id) == [50, 51, 53, 55, 1_001, 56, 58, 59])
        #expect(rows.first { $0.id == 53 }?.payload == 1)
        let batches = recorder.take()
        #expect(batches.count == 1, "one batch for upserts and removals together, got \(batches.count)")
        #expect(batches.first?.deletions.count == 3)

        // While the next page loads: the changes win over the page's copies.
        paginator.itemDidAppear(at: 7)
        let next = await loader.nextRequest()
        paginator.apply(upserting: [TestRow(id: 61, key: 61, payload: 9)], removing: [63])
        next.succeed(ids: 60..<70, next: 7, previous: 5)
        let after = await Self.quiet(paginator)
        #expect(!after.contains { $0.id == 63 })
        #expect(after.first { $0.id == 61 }?.payload == 9)
        _ = recorder.take()
        paginator.apply(upserting: [TestRow](), removing: [Int]())  // nothing: no batch
        _ = await Self.quiet(paginator)
        #expect(recorder.take().isEmpty, "no changes, no batch")
    }

    @Test func aLongLiveFeedCannotGrowABoundedList() async throws {
        let (paginator, loader) = Self.make(prefetch: 2, maxRows: 20)
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)
        paginator.itemDidAppear(at: 8)
        await Self.answer(loader, page: 6)
        _ = await Self.quiet(paginator)
        paginator.itemDidAppear(at: 3)  // the visible row is near the top, but not within 2 rows
        for step in 0..<30 {
            paginator.upsert([TestRow(id: 1_000 + step, key: 60 + step % 10)])
            #expect(await Self.quiet(paginator).count <= 20)
        }
        // Page 6 went once the feed took the count past 20; what the feed sends below
        // row 59 since then is outside the window, and waits for page 6 to load again.
        #expect(await Self.quiet(paginator).map(\.id) == Array(50..<60))
        #expect(paginator.status.append == .idle)
        paginator.itemDidAppear(at: 9)
        let reload = await loader.nextRequest()
        #expect(reload.cursor == 6)
    }

    /// A page read before a live change and applied after it: the change wins over the
    /// page's copy of the row, in both directions and for a jump.
    @Test func liveChangesMadeWhileAPageLoadsWinOverThePage() async throws {
        let (paginator, loader) = Self.make()
        paginator.jump(to: 5)
        await Self.answer(loader, page: 5)
        _ = await Self.quiet(paginator)

        // The next page is on its way, read (by the script) before these changes.
        paginator.itemDidAppear(at: 9)
        let next = await loader.nextRequest()
        paginator.upsert([
            TestRow(id: 61, key: 61, payload: 7),  // a row of that page, changed: outside the window yet, ignored now
            TestRow(id: 2_000, key: 65),  // a row that moves into that page's range
            TestRow(id: 62, key: 5_000),  // a row of that page that moves far below it
        ])
        paginator.remove(ids: [63])  // a row of that page that leaves
        next.succeed(ids: 60..<70, next: 7, previous: 5)
        var rows = await Self.quiet(paginator)
        #expect(rows.map(\.id) == Array(50..<62) + [64, 65, 2_000, 66, 67, 68, 69], "ties keep arrival order")
        #expect(rows.first { $0.id == 61 }?.payload == 7, "the changed row, not the page's copy")

        // A previous page likewise.
        paginator.itemDidAppear(at: 0)
        let previous = await loader.nextRequest()
        #expect(previous.cursor == 4)
        paginator.upsert([TestRow(id: 45, key: 45, payload: 3)])
        paginator.remove(ids: [41])
        previous.succeed(ids: 40..<50, next: 5, previous: 3)
        rows = await Self.quiet(paginator)
        #expect(rows.prefix(10).map(\.id) == [40, 42, 43, 44, 45, 46, 47, 48, 49, 50])
        #expect(rows.first { $0.id == 45 }?.payload == 3)

        // A jump: the page replaces the rows, the change made meanwhile stays.
        paginator.jump(to: 8)
        let jump = await loader.nextRequest()
        paginator.upsert([TestRow(id: 85, key: 85, payload: 9)])
        jump.succeed(ids: 80..<90, next: 9, previous: 7)
        rows = await Self.quiet(paginator)
        #expect(rows.map(\.id) == Array(80..<90))
        #expect(rows.first { $0.id == 85 }?.payload == 9)

        // With nothing loading, no change is kept for later pages.
        #expect(paginator._shared.withLock { $0.liveChanges.isEmpty })
    }
}

import LeaderboardFixtures
import ListEngineTesting
import ListPagination
import Testing

@Suite(.timeLimit(.minutes(5))) struct FixturePageLoaderTests {
    static func walk<C>(_ paginator: Paginator<FixturePageLoader<C>, ManualClock>) async -> PaginationStatus {
        for _ in 0..<100 {
            paginator.loadNextPage()
            let status = await paginator.settle()
            if status.state != .idle { return status }
        }
        return paginator.status
    }

    @Test(arguments: [FixturePageLoader<ManualClock>.Mode.pageNumber, .cursor])
    func walksEveryPageInto3000Rows(mode: FixturePageLoader<ManualClock>.Mode) async throws {
        let fixtures = try FixtureDirectory.locate()
        let clock = ManualClock()
        let loader = FixturePageLoader(directory: fixtures, mode: mode, clock: clock)
        let paginator = Paginator(loader: loader, retryPolicy: .none, clock: clock)
        let status = await Self.walk(paginator)
        #expect(status.state == .exhausted)
        #expect(status.loadedPages == 60)
        #expect(loader.requestedCursors.count == 60)
        #expect(Array(await paginator.dataSource.flush()) == (try fixtures.loadPlayers().sorted(by: <)))
    }

    @Test func latencyIsSleptOnTheClock() async throws {
        let clock = ManualClock()
        let loader = FixturePageLoader(directory: try FixtureDirectory.locate(), latency: .milliseconds(400), clock: clock)
        let paginator = Paginator(loader: loader, loadingIndicatorDelay: .milliseconds(300), retryPolicy: .none, clock: clock)
        paginator.loadNextPage()
        await clock.waitForSleepers(count: 2)  // the latency and the indicator timer
        clock.advance(by: .milliseconds(300))
        await paginator.waitForStatus(\.isShowingLoadingIndicator)
        #expect(paginator.state == .loading)
        clock.advance(by: .milliseconds(100))
        #expect(await paginator.settle() == PaginationStatus(state: .idle, loadedPages: 1))
        #expect(loader.requestedCursors == [nil])
    }

    @Test func theFailureSwitchFailsTheNextLoadOnly() async throws {
        let clock = ManualClock()
        let loader = FixturePageLoader(directory: try FixtureDirectory.locate(), mode: .cursor, clock: clock)
        let paginator = Paginator(loader: loader, retryPolicy: .none, clock: clock)
        paginator.loadNextPage()
        await paginator.settle()
        loader.failNextLoads()
        paginator.loadNextPage()
        #expect(await paginator.settle().state == .failed(.transport(url: nil, description: "simulated failure")))
        #expect(await paginator.dataSource.flush().count == 50)
        paginator.retry()
        #expect(await paginator.settle().state == .idle)
        #expect(await paginator.dataSource.flush().count == 100)
        #expect(loader.requestedCursors.count == 3)
        #expect(loader.requestedCursors[1] == loader.requestedCursors[2])
    }

    @Test func aMissingPageIsATypedError() async throws {
        let loader = FixturePageLoader(directory: try FixtureDirectory.locate(), clock: ManualClock())
        await #expect {
            try await loader.loadPage(at: .page(99))
        } throws: { error in
            guard case .transport(let url, let description) = error as? PaginationError else { return false }
            return url?.lastPathComponent == "page-099.json" && description.contains("page-099.json")
        }
    }
}

extension Paginator {
    @discardableResult
    func waitForStatus(_ predicate: (PaginationStatus) -> Bool) async -> PaginationStatus {
        for await status in statuses() where predicate(status) { return status }
        return status
    }

    @discardableResult
    func settle() async -> PaginationStatus {
        await waitForStatus { $0.state != .loading }
    }
}

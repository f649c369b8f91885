import Dispatch
import LeaderboardFixtures
import ListPagination
import Synchronization
import TerminalListRenderer

/// The live leaderboard: a data source filled page by page by a paginator, kept live
/// by the fixture feed, shown by a terminal renderer.
///
/// - On a terminal, pages load as the viewport nears the end of the list (the renderer
///   reports the visible rows, the paginator prefetches within 10 rows of the end);
///   plain frames load them when their script says.
/// - The paginator's status becomes the status line: loading, the "Loading…" row when
///   a page is slow, the last error and the retry path.
/// - The feed changes the server's list (``LiveLeaderboard``) and pushes the changes
///   that concern the loaded rows into the data source, so rows move, appear and leave.
/// - Grouped by tier (`--group tier`), the data source is a `SectionedListDataSource`
///   keyed by `LeaderboardTier`; the paginator and the feed work on its flat ``board``
///   unchanged, players move between tiers as their scores cross a boundary, and `t`
///   shows or hides the tier headers over the same rows.
final class LeaderboardDemo<Loader: PageLoader>: Sendable where Loader.Item == Player {
    /// The rows, flat: what the paginator fills and the feed changes.
    let board: ListDataSource<Player>
    /// The same rows grouped by tier, with `--group tier`; `board` is its `rows`.
    let tiers: SectionedListDataSource<LeaderboardTier, Player>?
    let paginator: Paginator<DemoLoader<Loader>, ContinuousClock>
    let renderer: TerminalListRenderer<Player>
    let failures: FailureSwitch
    /// The server's list, for the fixture data; `nil` for an HTTP endpoint.
    let server: LiveLeaderboard?
    let feed: [FeedEvent]
    let options: DemoOptions
    let isSortedByName = Atomic<Bool>(false)
    let feedEventsPlayed = Atomic<Int>(0)
    /// The generated leaderboard shown through a window, with `--players`.
    let window: Window?

    /// A generated leaderboard (`--players`) and the cursor of its last page.
    struct Window: Sendable {
        let source: GeneratedLeaderboard
        /// The cursor of the page with the last players, for `G`.
        let lastPage: Loader.Cursor
    }

    init(
        loader: Loader, server: LiveLeaderboard?, feed: [FeedEvent], window: Window? = nil,
        renderer: TerminalListRenderer<Player>, options: DemoOptions
    ) {
        if options.grouping == .tier {
            // Player's `<` within a tier; tiers best first, so the rows are the server's order.
            let tiers = SectionedListDataSource<LeaderboardTier, Player>(sectionedBy: \.tier)
            self.tiers = tiers
            board = tiers.rows
        } else {
            tiers = nil
            board = ListDataSource<Player>()  // Player's `<`: the server's order, Player.byScore
        }
        failures = FailureSwitch()
        paginator = Paginator(
            dataSource: board,
            loader: DemoLoader(base: loader, latency: options.latency, failures: failures),
            prefetchDistance: 10,
            maxLoadedRows: window == nil ? nil : options.maxLoadedRows,
            loadingIndicatorDelay: .milliseconds(250),
            retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(600), jitter: 0)
        )
        self.server = server
        self.feed = feed
        self.window = window
        self.renderer = renderer
        self.options = options
    }

    /// Attaches the renderer and loads the first page; on a terminal, also wires
    /// prefetch and the status line.
    ///
    /// - Parameter interactive: whether the demo runs on a terminal. Plain frames load
    ///   pages only when the frame script says so, so that each frame's rows and status
    ///   line are those of the same pages.
    func start(interactive: Bool) {
        if let tiers {
            tiers.attach(renderer.sectioned { (tier: LeaderboardTier) in tier.name })
        } else {
            board.attach(renderer)
        }
        if let source = window?.source {
            renderer.showPositionInSource { player in
                TerminalSourcePosition(offset: source.rank(of: player), total: source.count)
            }
        }
        guard interactive else {
            paginator.loadNextPage()
            return
        }
        let paginator = self.paginator
        renderer.observeVisibleRows { visible, count in
            // The renderer's count is the rows it shows; the data source's delivered
            // count may still be the previous version's while a batch renders, so
            // decide here and let the paginator confirm. Near the end, the last visible
            // row asks for the next page; otherwise the first visible row is reported,
            // which asks for the previous page near the start, and which a window keeps
            // when it drops rows.
            let lastVisible = min(visible.upperBound, count) - 1
            guard lastVisible >= 0 else { return }
            if paginator.isWithinPrefetchDistance(lastVisible, of: count) {
                paginator.itemDidAppear(at: lastVisible)
            } else {
                paginator.itemDidAppear(at: visible.lowerBound)
            }
        }
        Task { [weak self] in
            guard let statuses = self?.paginator.statuses() else { return }
            for await status in statuses {
                guard let self else { return }
                // Let a page that just arrived reach the screen before its "Loading…"
                // row goes, so the new rows take that row's place.
                if status.state != .loading { await self.board.flush() }
                self.show(status)
            }
        }
        paginator.loadNextPage()
    }

    /// Waits until no page is loading.
    func pageSettled() async {
        for await state in paginator.states() where state != .loading { break }
    }

    /// Plays feed events forever, one every `interval`, once the first page is in.
    ///
    /// Later rounds replay the events over the live state: joins and departures of
    /// players already there or gone name no one, so those rounds are score changes.
    func playFeed(every interval: Duration) async throws {
        if window != nil { return try await playGeneratedFeed(every: interval) }
        guard let server, !feed.isEmpty else { return }
        await pageSettled()
        let clock = ContinuousClock()
        var deadline = clock.now
        while true {
            for event in feed {
                deadline = deadline.advanced(by: interval)
                try await clock.sleep(until: deadline)
                apply(event, on: server)
            }
        }
    }

    /// Plays the next `count` feed events at once (for plain frames).
    func playFeedEvents(_ count: Int) {
        if window != nil { return playGeneratedFeedEvents(count) }
        guard let server, !feed.isEmpty else { return }
        for _ in 0..<count {
            let index = feedEventsPlayed.load(ordering: .relaxed) % feed.count
            apply(feed[index], on: server)
        }
    }

    private func apply(_ event: FeedEvent, on server: LiveLeaderboard) {
        switch server.apply(event) {
        case .add(let player)?: board.add(player)
        case .remove(let id)?: board.remove(ids: [id])
        case nil: break
        }
        feedEventsPlayed.add(1, ordering: .relaxed)
    }

    /// Shows or hides the tier headers, with `--group tier`: the same rows, grouped or
    /// flat; the first visible row stays first and the selected player stays selected.
    ///
    /// - Returns: `false` when the list is not grouped.
    func toggleGrouping() -> Bool {
        guard tiers != nil else { return false }
        renderer.showsSectionHeaders.toggle()
        show(paginator.status)
        return true
    }

    /// Switches between score order and name order; the selected player stays selected
    /// and in view.
    func toggleSort() {
        let byName = !isSortedByName.load(ordering: .relaxed)
        isSortedByName.store(byName, ordering: .relaxed)
        let selected = renderer.viewport.selectedID
        board.sort(by: byName ? Player.byName : Player.byScore)
        show(paginator.status)
        Task {
            await board.flush()
            if let selected { renderer.select(id: selected) }
        }
    }
}

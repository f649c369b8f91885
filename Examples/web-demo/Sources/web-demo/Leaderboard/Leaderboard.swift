import LeaderboardFixtures
import ListPagination
import ServiceLifecycle
import Synchronization
import WebListRenderer

/// The demo's one shared list: the fixture leaderboard, loaded page by page as browsers
/// scroll, and kept live by the fixture feed. Every browser sees the same list through
/// the hub.
///
/// The list is grouped by tier (``TierSections``). A tier is a band of scores and the
/// tiers sort best first, so the rows in section-major order are the leaderboard's order:
/// the flat rows (`board`) serve the flat page, its paginator and `/snapshot`, and the
/// sections serve the grouped page (`/?group=tier`) through a second hub, with the same
/// versions.
///
/// As a `Service` it plays the feed until graceful shutdown, then ends every browser's
/// event stream so the HTTP server can stop.
final class Leaderboard: Service {
    let grouped: SectionedListDataSource<LeaderboardTier, Player>
    /// The same list, flat (`grouped.rows`): the leaderboard in score order.
    let board: ListDataSource<Player>
    let hub: WebListHub<Player>
    let groupedHub: SectionedWebListHub<LeaderboardTier, Player>
    let history = SnapshotHistory(capacity: 1_024)
    let paginator: Paginator<LivePageLoader, ContinuousClock>
    private let feed: LiveFeed
    private let roster: LiveRoster
    private let feedInterval: Duration?
    private let eventsPlayed = Atomic<Int>(0)

    init(fixtures: FixtureDirectory, feedInterval: Duration?, pageLatency: Duration) throws(FixtureError) {
        feed = try LiveFeed(directory: fixtures)
        roster = LiveRoster(feed.roster)
        self.feedInterval = feedInterval
        let grouped = SectionedListDataSource<LeaderboardTier, Player>(sectionedBy: { $0.tier })
        self.grouped = grouped
        board = grouped.rows
        hub = WebListHub(format: PlayerRow.format, limits: .init(messages: 512))
        groupedHub = SectionedWebListHub(format: TierSections.format, limits: .init(messages: 512))
        let loader = LivePageLoader(pages: FixturePageLoader(directory: fixtures, mode: .pageNumber, latency: pageLatency), roster: roster)
        paginator = Paginator(dataSource: board, loader: loader, prefetchDistance: 10, loadingIndicatorDelay: .milliseconds(150))
        board.attach(hub)
        grouped.attach(groupedHub)
        grouped.attach(history)
    }

    /// Feed events applied since the start.
    var feedEvents: Int { eventsPlayed.load(ordering: .relaxed) }

    func run() async throws {
        paginator.loadNextPage()
        if let feedInterval {
            let feedTask = Task { try await self.playFeed(every: feedInterval) }
            defer { feedTask.cancel() }
            try? await gracefulShutdown()
        } else {
            try? await gracefulShutdown()
        }
        hub.finish()
        groupedHub.finish()
    }

    /// Plays the fixture feed over and over (later rounds start from the live state, so
    /// they are score changes), one event every `interval`.
    ///
    /// An event about a player who is not loaded yet only enters the list when the
    /// player now ranks above the last loaded row; otherwise the player arrives with
    /// their page, already up to date.
    private func playFeed(every interval: Duration) async throws {
        // Wait for the first page, so the feed plays into a list that shows something.
        for await state in paginator.states() where state != .loading { break }
        await board.flush()
        let clock = ContinuousClock()
        var deadline = clock.now
        while true {
            for event in feed.events {
                deadline = deadline.advanced(by: interval)
                try await clock.sleep(until: deadline)
                switch roster.apply(event) {
                case .add(let player)?:
                    if board[id: player.id] != nil || ranksInLoadedRange(player) { board.add(player) }
                case .remove(let id)?:
                    board.remove(ids: [id])
                case nil:
                    break
                }
                eventsPlayed.add(1, ordering: .relaxed)
            }
        }
    }

    private func ranksInLoadedRange(_ player: Player) -> Bool {
        if paginator.state == .exhausted { return true }
        guard let last = board.snapshot.last else { return false }
        return player < last
    }
}

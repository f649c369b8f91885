import LeaderboardFixtures
import ListPagination

/// The fixture pages, corrected with the live roster: what a server that keeps its
/// pages up to date would return.
struct LivePageLoader: PageLoader {
    let pages: FixturePageLoader<ContinuousClock>
    let roster: LiveRoster

    func loadPage(at cursor: FixtureCursor?) async throws -> Page<Player, FixtureCursor> {
        var page = try await pages.loadPage(at: cursor)
        page.items = roster.current(page.items)
        return page
    }
}

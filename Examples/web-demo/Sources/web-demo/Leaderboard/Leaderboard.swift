import Foundation
import LeaderboardFixtures
import ListEnginePostgres
import ListPagination
import ServiceLifecycle
import Synchronization

/// The demo's shared state: the live roster the fixture feed keeps changing, the views
/// of it that windows show (``WindowView``), and the open windows, one per browser page
/// (``LeaderboardWindow``).
///
/// Each `/events` stream opens a window named by a token the server makes
/// (``WindowTable``, ``WindowToken``). It shows the shared view of the top page (one
/// flat, one grouped by tier) until its browser scrolls to where a page would load;
/// then it gets a view of its own, which pages through the players with keyset pages for
/// that browser alone. Every feed event is applied to the roster once, then to each
/// shared view and each window's own view through its paginator's `upsert` or
/// `remove(ids:)`, which applies it only where it falls inside that view. So a thousand
/// windows at the top cost one list, one diff and one encoding per event, and each of
/// their streams writes the same bytes.
///
/// A window whose stream ended is kept for the resume grace period, then released.
/// As a `Service` it plays the feed and releases expired windows until graceful
/// shutdown, then ends every window's event stream so the HTTP server can stop.
final class Leaderboard: Service {
    /// The sizes of a window and the pace of its pages.
    struct Sizes: Sendable {
        /// Players in a page: 50, about two screens of rows.
        var pageSize = 50
        /// Rows a window keeps at most: 200, four pages, so that a window holds the
        /// page of the visible row, one page of prefetch on each side and one more.
        var maxLoadedRows = 200
        /// A page is loaded when the visible row is this close to an end of the
        /// window: 20 rows, under half a page, so that the bound is well over twice it.
        var prefetchDistance = 20
        /// Simulated time to load a page.
        var pageLatency: Duration = .milliseconds(300)
    }

    /// Where the players are: in memory, or in PostgreSQL.
    enum Source: Sendable {
        /// The players in this process: the feed changes them, then every view.
        case memory(LiveRoster)
        /// The players in a PostgreSQL table: the feed writes SQL, and changes reach the
        /// views through the instance's change feed.
        case postgres(PostgresRoster)
    }

    let source: Source
    /// Where the views read their pages: the source's roster.
    let store: any PlayerStore
    /// The change feed of the PostgreSQL roster, `nil` in memory.
    private let changeFeed: PostgresChangeFeed<Player>?
    let sizes: Sizes
    private let feed: LiveFeed
    private let feedInterval: Duration?
    private let eventsPlayed = Atomic<Int>(0)
    private let table: Mutex<WindowTable>
    private let clock = ContinuousClock()
    /// The views of the top page that windows share: flat, and grouped by tier.
    private let flatView: WindowView
    private let groupedView: WindowView

    /// - Parameter postgres: the PostgreSQL roster, already started (its feed listens),
    ///   or `nil` for the players in memory.
    init(fixtures: FixtureDirectory, feedInterval: Duration?, sizes: Sizes, limits: WindowTable.Limits, postgres: PostgresRoster? = nil) throws(FixtureError) {
        feed = try LiveFeed(directory: fixtures)
        if let postgres {
            source = .postgres(postgres)
            store = postgres
        } else {
            let roster = LiveRoster(feed.roster)
            source = .memory(roster)
            store = roster
        }
        changeFeed = postgres?.feed
        self.feedInterval = feedInterval
        self.sizes = sizes
        table = Mutex(WindowTable(limits: limits))
        flatView = WindowView(grouped: false, store: store, feed: changeFeed, sizes: sizes, keepsAPage: true)
        groupedView = WindowView(grouped: true, store: store, feed: changeFeed, sizes: sizes, keepsAPage: true)
    }

    /// The view of the top page that windows share until they scroll away from it.
    func sharedView(grouped: Bool) -> WindowView {
        grouped ? groupedView : flatView
    }

    /// Feed events applied since the start.
    var feedEvents: Int { eventsPlayed.load(ordering: .relaxed) }

    /// The caps and the resume grace period.
    var limits: WindowTable.Limits { table.withLock { $0.limits } }

    /// Opens a window for a new event stream from `client` (its peer address), under a
    /// fresh token.
    ///
    /// - Returns: the window, or why it was not opened: too many windows, too many for
    ///   this client, or the leaderboard has stopped.
    func open(grouped: Bool, client: String) -> Result<LeaderboardWindow, WindowTable.Refusal> {
        let now = clock.now
        return table.withLock { table in
            table.open(client: client, at: now) { token in
                LeaderboardWindow(id: token, shared: sharedView(grouped: grouped), store: store, feed: changeFeed, sizes: sizes)
            }
        }
    }

    /// Gives the window with this token a new stream, if its last one ended within the
    /// grace period.
    func resume(_ token: String) -> WindowTable.Resumption {
        let now = clock.now
        return table.withLock { $0.resume(token, at: now) }
    }

    /// Whether `token` names a window whose stream is live (counted as refused).
    func isStreaming(_ token: String) -> Bool {
        let now = clock.now
        return table.withLock { $0.isLive(token, at: now) }
    }

    /// Notes that a window's stream ended: the window is kept for the grace period (it
    /// follows the feed meanwhile), then released.
    func streamEnded(_ window: LeaderboardWindow) {
        let now = clock.now
        table.withLock { $0.streamEnded(window, at: now) }?.close()
    }

    /// The window with this token, with a live stream or within its grace period.
    func window(_ token: String) -> LeaderboardWindow? {
        let now = clock.now
        return table.withLock { $0.window(token, at: now) }
    }

    /// Every window held.
    var openWindows: [LeaderboardWindow] {
        table.withLock { $0.windows }
    }

    /// Windows held, of those the ones streaming, the counts since the start, and the
    /// frames every view has turned into event bytes.
    var counts: (held: Int, streaming: Int, since: WindowTable.Counts, frames: Int) {
        let (held, counts, releasedFrames, windows) = table.withLock { ($0.held, $0.counts, $0.releasedFrames, $0.windows) }
        let shared = flatView.eventBytes.made + groupedView.eventBytes.made
        return (held.all, held.streaming, counts, shared + releasedFrames + windows.reduce(0) { $0 + ($1.ownView?.eventBytes.made ?? 0) })
    }

    /// Every view the feed reaches: the shared ones, and the windows' own.
    var views: [WindowView] {
        [flatView, groupedView] + table.withLock { $0.windows }.compactMap(\.ownView)
    }

    func run() async throws {
        let feedTask = feedInterval.map { interval in Task { try await self.playFeed(every: interval) } }
        let sweepTask = Task { try await self.sweepExpiredWindows() }
        defer {
            feedTask?.cancel()
            sweepTask.cancel()
        }
        try? await gracefulShutdown()
        for window in table.withLock({ $0.finish() }) { window.close() }
        flatView.close()
        groupedView.close()
        if case .postgres(let roster) = source { roster.stop() }
    }

    /// Releases the windows whose stream ended more than the grace period ago, several
    /// times per grace period (and at least every second), so that a closed tab's window
    /// is freed soon after its grace is over. Once at least ``trimAfter`` streams have
    /// ended or windows have been released since it last did, it gives the freed memory
    /// back to the system (``FreedMemory``).
    private func sweepExpiredWindows() async throws {
        let grace = limits.resumeGrace
        let period = max(.milliseconds(20), min(.seconds(1), grace / 4))
        var lastEnded = 0
        while true {
            try await Task.sleep(for: period)
            let now = clock.now
            let (expired, ended) = table.withLock { ($0.sweep(at: now), $0.counts.streamsEnded) }
            for window in expired { window.close() }
            if case .postgres(let roster) = source { await roster.refreshCount() }
            if ended - lastEnded >= Self.trimAfter || expired.count >= Self.trimAfter {
                lastEnded = ended
                FreedMemory.giveBack()
            }
        }
    }

    /// How many streams must have ended, or windows been released in one sweep, before
    /// the sweep gives freed memory back: enough that the trim's cost is small beside
    /// what they freed.
    static let trimAfter = 32

    /// Plays the fixture feed over and over (later rounds start from the live state, so
    /// they are score changes), one event every `interval`. In memory each event changes
    /// the roster, then goes to every view, which shows it only if it falls inside. With
    /// PostgreSQL each event is an SQL statement, and the change comes back to the views
    /// of every instance through the change feed.
    private func playFeed(every interval: Duration) async throws {
        var deadline = clock.now
        while true {
            for event in feed.events {
                deadline = deadline.advanced(by: interval)
                try await clock.sleep(until: deadline)
                switch source {
                case .memory(let roster):
                    if let change = roster.apply(event) {
                        for view in views { view.apply(change) }
                    }
                case .postgres(let roster):
                    do {
                        try await roster.write(event)
                    } catch {
                        // The database is away: the event is skipped, the feed goes on.
                        continue
                    }
                }
                eventsPlayed.add(1, ordering: .relaxed)
            }
        }
    }
}

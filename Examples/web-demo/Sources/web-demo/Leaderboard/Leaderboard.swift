import Foundation
import LeaderboardFixtures
import ListPagination
import ServiceLifecycle
import Synchronization

/// The demo's shared state: the live roster the fixture feed keeps changing, and the
/// open windows, one per browser page (``LeaderboardWindow``).
///
/// Each `/events` stream opens a window with its own list and paginator; the window
/// pages through ``roster`` with keyset pages, and every feed event is applied to the
/// roster once and then to every open window through its paginator's `upsert` or
/// `remove(ids:)`, which applies it only where it falls inside that window. A browser
/// scrolled down loads pages for itself alone.
///
/// As a `Service` it plays the feed until graceful shutdown, then ends every window's
/// event stream so the HTTP server can stop.
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

    let roster: LiveRoster
    let sizes: Sizes
    private let feed: LiveFeed
    private let feedInterval: Duration?
    private let eventsPlayed = Atomic<Int>(0)
    private let windows = Mutex(Windows())
    private let nextWindow = Atomic<Int>(1)

    private struct Windows {
        var open: [String: LeaderboardWindow] = [:]
        /// Frames turned into event bytes by windows already released.
        var releasedFrames = 0
        var opened = 0
        var released = 0
        var isFinished = false
    }

    init(fixtures: FixtureDirectory, feedInterval: Duration?, sizes: Sizes) throws(FixtureError) {
        feed = try LiveFeed(directory: fixtures)
        roster = LiveRoster(feed.roster)
        self.feedInterval = feedInterval
        self.sizes = sizes
    }

    /// Feed events applied since the start.
    var feedEvents: Int { eventsPlayed.load(ordering: .relaxed) }

    /// Opens a window for a new event stream, under `id` (a fresh id when `nil`). A
    /// window already open under that id (a browser that reconnected before its old
    /// stream was noticed to be gone) is closed first: its stream ends.
    ///
    /// - Returns: the window, or `nil` once the leaderboard has stopped.
    func open(id: String?, grouped: Bool) -> LeaderboardWindow? {
        let id = id ?? "w\(nextWindow.add(1, ordering: .relaxed).oldValue)"
        let window = LeaderboardWindow(id: id, grouped: grouped, roster: roster, sizes: sizes)
        let (replaced, accepted) = windows.withLock { windows -> (LeaderboardWindow?, Bool) in
            guard !windows.isFinished else { return (nil, false) }
            let replaced = windows.open.updateValue(window, forKey: id)
            windows.opened += 1
            if let replaced {
                windows.released += 1
                windows.releasedFrames += replaced.eventBytes.made
            }
            return (replaced, true)
        }
        replaced?.close()
        guard accepted else {
            window.close()
            return nil
        }
        return window
    }

    /// Releases a window whose stream ended: it leaves the feed and stops loading.
    func release(_ window: LeaderboardWindow) {
        let removed = windows.withLock { windows -> Bool in
            guard windows.open[window.id] === window else { return false }
            windows.open[window.id] = nil
            windows.released += 1
            windows.releasedFrames += window.eventBytes.made
            return true
        }
        if removed { window.close() }
    }

    /// The open window with this id.
    func window(_ id: String) -> LeaderboardWindow? {
        windows.withLock { $0.open[id] }
    }

    /// The open windows, by id.
    var openWindows: [LeaderboardWindow] {
        windows.withLock { $0.open.values.sorted { $0.id < $1.id } }
    }

    /// Windows opened and released since the start, and the frames every window has
    /// turned into event bytes.
    var counts: (opened: Int, released: Int, frames: Int) {
        let (opened, released, releasedFrames, open) = windows.withLock { ($0.opened, $0.released, $0.releasedFrames, Array($0.open.values)) }
        return (opened, released, releasedFrames + open.reduce(0) { $0 + $1.eventBytes.made })
    }

    func run() async throws {
        if let feedInterval {
            let feedTask = Task { try await self.playFeed(every: feedInterval) }
            defer { feedTask.cancel() }
            try? await gracefulShutdown()
        } else {
            try? await gracefulShutdown()
        }
        let open = windows.withLock { windows in
            windows.isFinished = true
            return Array(windows.open.values)
        }
        for window in open { window.close() }
    }

    /// Plays the fixture feed over and over (later rounds start from the live state, so
    /// they are score changes), one event every `interval`: each event changes the
    /// roster, then goes to every open window, which shows it only if it falls inside.
    private func playFeed(every interval: Duration) async throws {
        let clock = ContinuousClock()
        var deadline = clock.now
        while true {
            for event in feed.events {
                deadline = deadline.advanced(by: interval)
                try await clock.sleep(until: deadline)
                if let change = roster.apply(event) {
                    for window in windows.withLock({ Array($0.open.values) }) { window.apply(change) }
                }
                eventsPlayed.add(1, ordering: .relaxed)
            }
        }
    }
}

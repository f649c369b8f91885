import Dispatch
import LeaderboardFixtures
import ListPagination
import Synchronization
import WebListRenderer

/// One browser's view of the leaderboard: its own list, paged from the live roster by its
/// own `Paginator`, and kept live by the shared feed through that paginator.
///
/// A window is opened by an `/events` stream under a token the server makes
/// (``Leaderboard/open(grouped:client:)``), kept for the resume grace after its stream
/// ends (``Leaderboard/streamEnded(_:)``), then released. It holds at most
/// ``Leaderboard/Sizes/maxLoadedRows`` rows: keyset pages of
/// ``Leaderboard/Sizes/pageSize`` players after or before a (score, id) key
/// (``RankKey``), loaded both ways as the browser reports the rows it shows
/// (`/appear`), with the pages farthest from the visible row dropped past the bound.
/// Feed events reach it through `Paginator.upsert(_:)` and `remove(ids:)`: a change
/// that lands inside the window is one batch to its browser, one outside it is ignored
/// (it arrives with the page that covers its place, if the browser scrolls there).
/// A change that comes while a page is loading wins over that page's copy of the row
/// (the paginator sees to it), so a page read before the change and applied after it
/// cannot leave the old version on screen.
///
/// The list is grouped by tier (``TierSections``); its flat rows (`grouped.rows`) are
/// what the paginator drives. A flat window publishes the rows through a `WebListHub`,
/// a grouped one (`/?group=tier`) the sections through a `SectionedWebListHub`, at the
/// same versions; ``history`` keeps recent versions for `/snapshot?version=N`.
final class LeaderboardWindow: Sendable {
    typealias Loader = KeysetLoader<Player, RankKey>

    /// Windows not yet deinitialised, released or not: `/status`'s `windowsAlive`, which
    /// returns to the number open once released windows are freed.
    static let alive = Atomic<Int>(0)

    /// What a window's stream may have waiting in its hub before it is reset to a
    /// snapshot: 512 messages or 256 KiB of batch messages, whichever comes first, so
    /// that a browser that stopped reading holds a bounded number of bytes.
    static let clientLimits = WebListHub<Player>.Limits(messages: 512, bytes: 256 << 10)

    let id: String
    let isGrouped: Bool
    let grouped: SectionedListDataSource<LeaderboardTier, Player>
    /// The same list, flat: the rows the paginator loads.
    var rows: ListDataSource<Player> { grouped.rows }
    let paginator: Paginator<Loader, ContinuousClock>
    /// The hub of a flat window (`nil` for a grouped one).
    let hub: WebListHub<Player>?
    /// The hub of a grouped window (`nil` for a flat one).
    let groupedHub: SectionedWebListHub<LeaderboardTier, Player>?
    /// Recent versions for `/snapshot?version=N`: one copy of the rows' markup and
    /// 64 KiB of batch messages (a few hundred feed changes).
    let history: SnapshotHistory
    /// The event bytes of this window's frames.
    let eventBytes = EventBytes(batchSlots: 8, snapshotSlots: 1)
    /// The part of the order the window's pages ever covered.
    private let reach: Reach

    init(id: String, grouped isGrouped: Bool, roster: LiveRoster, sizes: Leaderboard.Sizes) {
        self.id = id
        self.isGrouped = isGrouped
        history = SnapshotHistory(grouped: isGrouped, budget: 64 << 10)
        let grouped = SectionedListDataSource<LeaderboardTier, Player>(sectionedBy: { $0.tier })
        self.grouped = grouped
        let latency = sizes.pageLatency, limit = sizes.pageSize
        let reach = Reach()
        self.reach = reach
        let loader = Loader(limit: limit, key: RankKey.init) { cursor, count in
            // The latency first: the page is the roster as it stands when it arrives.
            if latency > .zero { try await Task.sleep(for: latency) }
            let rows = roster.page(at: cursor, count: count)
            reach.cover(rows, at: cursor, limit: limit)
            return rows
        }
        paginator = Paginator(
            dataSource: grouped.rows, loader: loader, prefetchDistance: sizes.prefetchDistance,
            maxLoadedRows: sizes.maxLoadedRows, loadingIndicatorDelay: .milliseconds(150)
        )
        if isGrouped {
            hub = nil
            let groupedHub = SectionedWebListHub(format: TierSections.format, limits: Self.clientLimits)
            self.groupedHub = groupedHub
            grouped.attach(groupedHub)
        } else {
            let hub = WebListHub(format: PlayerRow.format, limits: Self.clientLimits)
            self.hub = hub
            groupedHub = nil
            grouped.rows.attach(hub)
        }
        grouped.attach(history)
        Self.alive.add(1, ordering: .relaxed)
        paginator.loadNextPage()
    }

    deinit {
        Self.alive.subtract(1, ordering: .relaxed)
    }

    /// A feed change, through the window.
    ///
    /// - Complexity: O(log *r*) on the caller, *r* = rows loaded; the paginator does the
    ///   rest on the list's diff queue, and nothing when the change is outside the window.
    func apply(_ change: FeedEvent.Change) {
        // Most changes are far from most windows: those that cannot concern this one are
        // not sent to its paginator, which would queue work on its list for nothing.
        switch change {
        case .add(let player):
            guard rows[id: player.id] != nil || reach.mayHold(RankKey(player)) else { return }
            paginator.upsert(CollectionOfOne(player))
        case .remove(let id):
            guard rows[id: id] != nil else { return }
            paginator.remove(ids: CollectionOfOne(id))
        }
    }

    /// A subscription to the window's messages (a snapshot first).
    func subscribe() -> WebListSubscription {
        if let hub { return hub.subscribe() }
        return groupedHub!.subscribe()
    }

    /// The current snapshot message, once the first page has arrived.
    func snapshotFrame() -> WebListFrame? {
        hub?.snapshotFrame() ?? groupedHub?.snapshotFrame()
    }

    /// The newest version published.
    var version: Int? { hub?.version ?? groupedHub?.version }

    /// Clients reset to a snapshot after falling behind.
    var resets: Int { hub?.statistics.resets ?? groupedHub?.statistics.resets ?? 0 }

    /// Stops loading and ends the window's stream.
    func close() {
        paginator.reset()
        hub?.finish()
        groupedHub?.finish()
    }
}

/// The part of the leaderboard's order a window's pages have covered since it opened:
/// from the first key of any page to the last, open at an end a page reached. The
/// paginator's window (between its first and last loaded page, open at a reached end)
/// always lies inside it, so a player whose place is outside it and who is not loaded
/// is outside the window: `upsert` would ignore it.
private final class Reach: Sendable {
    private struct State {
        var first: RankKey?
        var last: RankKey?
        var startReached = false
        var endReached = false
    }

    private let state = Mutex(State())

    /// Notes a page read from the roster: `rows` as `KeysetLoader` asked for them at
    /// `cursor` (one more than `limit` when another page follows, or precedes).
    func cover(_ rows: [Player], at cursor: KeysetCursor<RankKey>?, limit: Int) {
        state.withLock { state in
            switch cursor {
            case nil:
                state.startReached = true
                if rows.count <= limit { state.endReached = true }
            case .after?:
                if rows.count <= limit { state.endReached = true }
            case .before?, .through?:
                if rows.count <= limit { state.startReached = true }
            }
            for row in rows {
                let key = RankKey(row)
                if state.first.map({ key < $0 }) ?? true { state.first = key }
                if state.last.map({ $0 < key }) ?? true { state.last = key }
            }
        }
    }

    /// Whether a player at `key` may be inside the window.
    func mayHold(_ key: RankKey) -> Bool {
        state.withLock { state in
            (state.startReached || state.first.map { !(key < $0) } ?? false)
                && (state.endReached || state.last.map { !($0 < key) } ?? false)
        }
    }
}

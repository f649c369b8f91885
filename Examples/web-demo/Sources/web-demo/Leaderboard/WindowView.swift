import Dispatch
import LeaderboardFixtures
import ListEnginePostgres
import ListPagination
import Synchronization
import WebListRenderer

/// A list of the leaderboard that windows show: its rows, paged from the live roster by
/// its own `Paginator` and kept live by the shared feed through that paginator, and the
/// hub that streams it.
///
/// It holds at most ``Leaderboard/Sizes/maxLoadedRows`` rows: keyset pages of
/// ``Leaderboard/Sizes/pageSize`` players after or before a (score, id) key
/// (``RankKey``), loaded both ways as browsers report the rows they show (`/appear`),
/// with the pages farthest from the visible row dropped past the bound. Feed events reach
/// it through `Paginator.upsert(_:)` and `remove(ids:)`: a change that lands inside the
/// view is one batch to its browsers, one outside it is ignored (it arrives with the
/// page that covers its place, if a browser scrolls there). A change that comes while a
/// page is loading wins over that page's copy of the row (the paginator sees to it), so
/// a page read before the change and applied after it cannot leave the old version on
/// screen.
///
/// The leaderboard has one view of its top page for every window that has not scrolled
/// away from it (``Leaderboard/sharedView(grouped:)``): a feed event costs one diff and
/// one encoding there, whatever the number of windows on it, and each of its streams
/// writes the same bytes. A window that scrolls gets a view of its own
/// (``LeaderboardWindow``).
///
/// The list is grouped by tier (``TierSections``); its flat rows (`grouped.rows`) are
/// what the paginator drives. A flat view publishes the rows through a `WebListHub`,
/// a grouped one (`/?group=tier`) the sections through a `SectionedWebListHub`, at the
/// same versions; ``history`` keeps recent versions for `/snapshot?version=N`.
final class WindowView: Sendable {
    typealias Loader = KeysetLoader<Player, RankKey>

    /// What a stream may have waiting in its hub before it is reset to a snapshot: 512
    /// messages or 256 KiB of batch messages, whichever comes first, so that a browser
    /// that stopped reading holds a bounded number of bytes.
    static let clientLimits = WebListHub<Player>.Limits(messages: 512, bytes: 256 << 10)

    let isGrouped: Bool
    let grouped: SectionedListDataSource<LeaderboardTier, Player>
    /// The same list, flat: the rows the paginator loads.
    var rows: ListDataSource<Player> { grouped.rows }
    let paginator: Paginator<Loader, ContinuousClock>
    /// The hub of a flat view (`nil` for a grouped one).
    let hub: WebListHub<Player>?
    /// The hub of a grouped view (`nil` for a flat one).
    let groupedHub: SectionedWebListHub<LeaderboardTier, Player>?
    /// Recent versions for `/snapshot?version=N`: one copy of the rows' markup and
    /// 64 KiB of batch messages (a few hundred feed changes).
    let history: SnapshotHistory
    /// The event bytes of this view's frames, shared by its streams.
    let eventBytes = EventBytes(batchSlots: 8, snapshotSlots: 1)
    /// The part of the order the view's pages ever covered.
    private let reach: Reach
    /// For a shared view: the fewest rows it shows before it loads the next page itself.
    private let keepsRows: Int?
    /// With PostgreSQL: the view's entry in the instance's change feed.
    private let subscription: PostgresChangeFeed<Player>.Subscription?

    /// Makes a view and starts loading its first page.
    ///
    /// - Parameters:
    ///   - version: the version of the empty list; its first page is the next one.
    ///   - firstPageAtOnce: whether the first page comes without the simulated latency:
    ///     for a window's own view, whose browser already shows that page.
    ///   - keepsAPage: whether the view loads the next page itself when fewer rows than
    ///     a page less the prefetch distance are left (players who drop out of the top
    ///     page leave it): for a shared view, which no one browser drives, so that its
    ///     windows keep showing a screenful.
    ///   - store: where the pages are read.
    ///   - feed: with PostgreSQL, the change feed the view subscribes to before its first
    ///     page (in memory, the leaderboard applies changes with ``apply(_:)``).
    init(
        grouped isGrouped: Bool, store: any PlayerStore, feed: PostgresChangeFeed<Player>?, sizes: Leaderboard.Sizes,
        version: Int = 0, firstPageAtOnce: Bool = false, keepsAPage: Bool = false
    ) {
        self.isGrouped = isGrouped
        keepsRows = keepsAPage ? max(1, sizes.pageSize - sizes.prefetchDistance) : nil
        history = SnapshotHistory(grouped: isGrouped, budget: 64 << 10)
        let grouped = SectionedListDataSource<LeaderboardTier, Player>(sectionedBy: { $0.tier }, version: version)
        self.grouped = grouped
        let latency = sizes.pageLatency, limit = sizes.pageSize
        let reach = Reach()
        self.reach = reach
        let pagesRead = Atomic<Int>(0)
        let loader = Loader(limit: limit, key: RankKey.init) { cursor, count in
            // The latency first: the page is the roster as it stands when it arrives.
            let isFirst = pagesRead.add(1, ordering: .relaxed).oldValue == 0
            if latency > .zero, !(firstPageAtOnce && isFirst) { try await Task.sleep(for: latency) }
            let rows = try await store.page(at: cursor, count: count)
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
        subscription = feed?.subscribe(paginator)
        paginator.loadNextPage()
    }

    /// A feed change, through the view.
    ///
    /// - Complexity: O(log *r*) on the caller, *r* = rows loaded; the paginator does the
    ///   rest on the list's diff queue, and nothing when the change is outside the view.
    func apply(_ change: FeedEvent.Change) {
        // Most changes are far from most views: those that cannot concern this one are
        // not sent to its paginator, which would queue work on its list for nothing.
        switch change {
        case .add(let player):
            guard rows[id: player.id] != nil || reach.mayHold(RankKey(player)) else { return }
            paginator.upsert(CollectionOfOne(player))
        case .remove(let id):
            guard rows[id: id] != nil else { return }
            paginator.remove(ids: CollectionOfOne(id))
        }
        if let keepsRows, case .idle = paginator.status.append {
            let count = rows.count
            guard count > 0, count < keepsRows else { return }
            // As a browser at the top would: its last row is on screen, which loads the
            // next page, and the first row is the visible one, which a trim keeps.
            paginator.itemDidAppear(at: count - 1)
            paginator.itemDidAppear(at: 0)
        }
    }

    /// Whether rows at `offsets` on screen would make the paginator load a page: one is
    /// within the prefetch distance of the end and the end is not reached, or within it
    /// of the start and the start is not reached.
    func wouldLoad(at offsets: [Int]) -> Bool {
        let status = paginator.status
        let count = rows.count
        func isReached(_ state: PaginationState) -> Bool {
            if case .exhausted = state { true } else { false }
        }
        return offsets.contains { offset in
            (!isReached(status.append) && paginator.isWithinPrefetchDistance(offset, of: count))
                || (!isReached(status.prepend) && offset <= paginator.prefetchDistance)
        }
    }

    /// Returns once the first page is in the list and every renderer has it (or the
    /// first load failed, or the view was closed).
    func firstPage() async {
        for await status in paginator.statuses() {
            if status.loadedPages > 0 { break }
            if case .failed = status.append { break }
        }
        _ = await grouped.flush()
    }

    /// A subscription to the view's messages (a snapshot first).
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

    /// Streams reset to a snapshot after falling behind.
    var resets: Int { hub?.statistics.resets ?? groupedHub?.statistics.resets ?? 0 }

    /// Stops loading and ends the view's streams.
    func close() {
        subscription?.cancel()
        paginator.reset()
        hub?.finish()
        groupedHub?.finish()
    }
}

/// The part of the leaderboard's order a window's pages have covered since it opened:
/// from the first key of any page to the last, open at an end a page reached. The
/// paginator's window (between its first and last loaded page, open at a reached end)
/// always lies inside it, so a player whose place is outside it and who is not loaded
/// is outside the view: `upsert` would ignore it.
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

import LeaderboardFixtures
import ListEnginePostgres
import Synchronization
import WebListRenderer

/// One browser page's window on the leaderboard, named by the token the server made
/// (``Leaderboard/open(grouped:client:)``): the view it shows and the stream that
/// writes that view's messages.
///
/// A window opens on the leaderboard's shared view of the top page
/// (``Leaderboard/sharedView(grouped:)``), which any number of windows show at the
/// cost of one: a feed event is diffed and encoded once for all of them. It stays there
/// while its browser shows rows that the shared view's paginator would load nothing
/// for (`/appear` near neither end it can extend). The first `/appear` that would load
/// a page gives the window a view of its own, which it keeps:
///
/// 1. the stream stops reading the shared view, at its version *S* or before;
/// 2. the own view is made empty at version *S* and reads the top page at once (the
///    page the browser shows), following the feed from then on;
/// 3. the `/appear` offsets are replayed on it (the latest, if more came meanwhile);
/// 4. the stream reads the own view: a snapshot newer than *S*, then its batches.
///
/// So the versions a stream writes only increase, and `/snapshot?version=N` answers
/// from the shared view's history up to *S* and from the own view's after it.
///
/// A window is kept for the resume grace after its stream ends
/// (``Leaderboard/streamEnded(_:)``), then released: its own view, if it has one, is
/// closed with it.
final class LeaderboardWindow: Sendable {
    /// Windows not yet deinitialised, released or not: `/status`'s `windowsAlive`, which
    /// returns to the number open once released windows are freed.
    static let alive = Atomic<Int>(0)

    /// Where a stream reads a window's frames: a subscription to a view, with that view's
    /// event bytes.
    struct Source: Sendable {
        let subscription: WebListSubscription
        let bytes: EventBytes
    }

    private struct State {
        var view: WindowView
        /// The version of the shared view when the window left it; `nil` while on it.
        var forkedAt: Int?
        /// Replays the `/appear` offsets once the own view has its first page; `nil`
        /// until the window leaves the shared view.
        var fork: Task<Void, Never>?
        /// Offsets reported while the own view waits for its first page, the latest.
        var pending: [Int]?
        /// The subscription the window's stream reads, if it has one.
        var subscription: WebListSubscription?
        var isClosed = false
    }

    let id: String
    let isGrouped: Bool
    /// The view of the top page that windows share.
    let shared: WindowView
    private let store: any PlayerStore
    private let feed: PostgresChangeFeed<Player>?
    private let sizes: Leaderboard.Sizes
    private let state: Mutex<State>

    init(id: String, shared: WindowView, store: any PlayerStore, feed: PostgresChangeFeed<Player>?, sizes: Leaderboard.Sizes) {
        self.id = id
        self.isGrouped = shared.isGrouped
        self.shared = shared
        self.store = store
        self.feed = feed
        self.sizes = sizes
        state = Mutex(State(view: shared))
        Self.alive.add(1, ordering: .relaxed)
    }

    deinit {
        Self.alive.subtract(1, ordering: .relaxed)
    }

    /// The view the window shows now (its own one once it has left the shared view,
    /// while that waits for its first page too).
    var view: WindowView { state.withLock { $0.view } }

    /// The window's own view, `nil` while it shows the shared one: what the feed reaches
    /// besides the shared views.
    var ownView: WindowView? {
        state.withLock { $0.forkedAt == nil ? nil : $0.view }
    }

    /// Whether the window shows the shared view.
    var isShared: Bool { state.withLock { $0.forkedAt == nil } }

    /// Rows at `offsets` are on screen (`/appear`): the view's paginator loads the pages
    /// they call for. On the shared view, offsets that would load nothing change nothing,
    /// and offsets that would load a page give the window its own view first.
    func appear(at offsets: [Int]) {
        enum Action {
            case none
            case appear(WindowView)
        }
        let action: Action = state.withLock { state in
            if state.isClosed { return .none }
            if state.pending != nil {
                state.pending = offsets
                return .none
            }
            if state.forkedAt != nil { return .appear(state.view) }
            guard shared.wouldLoad(at: offsets) else { return .none }
            // Stop the stream's reading of the shared view before reading its version:
            // every frame the stream got is at that version or before.
            state.subscription?.cancel()
            state.subscription = nil
            let forkedAt = shared.version ?? 0
            let own = WindowView(grouped: isGrouped, store: store, feed: feed, sizes: sizes, version: forkedAt, firstPageAtOnce: true)
            state.view = own
            state.forkedAt = forkedAt
            state.pending = offsets
            // Made under the lock, so that a stream that finds the own view finds the
            // task to wait for too.
            state.fork = Task { [self] in
                await own.firstPage()
                let offsets = self.state.withLock { state in
                    defer { state.pending = nil }
                    return state.isClosed ? nil : state.pending
                }
                for offset in offsets ?? [] { own.paginator.itemDidAppear(at: offset) }
            }
            return .none
        }
        if case .appear(let view) = action {
            for offset in offsets { view.paginator.itemDidAppear(at: offset) }
        }
    }

    /// Loads the page that failed again (`/retry`), on the view the window shows.
    func retry() {
        view.paginator.retry()
    }

    /// Where a new stream of the window starts reading: the view it shows now, a
    /// snapshot first. `nil` once the window is closed.
    func subscribe() async -> Source? {
        await waitForFork()
        return state.withLock { state in
            guard !state.isClosed else { return nil }
            state.subscription?.cancel()
            return Self.subscribe(&state)
        }
    }

    /// Where the stream goes on reading once `source` ended: the window's own view after
    /// it left the shared one (a snapshot first), or `nil`: the window is closed, or
    /// `source` ended for another reason (its view finished).
    func source(after source: Source) async -> Source? {
        await waitForFork()
        return state.withLock { state in
            guard !state.isClosed, state.view.eventBytes !== source.bytes else { return nil }
            return Self.subscribe(&state)
        }
    }

    /// A new subscription to the view the window shows, kept as the stream's.
    private static func subscribe(_ state: inout State) -> Source {
        let subscription = state.view.subscribe()
        state.subscription = subscription
        return Source(subscription: subscription, bytes: state.view.eventBytes)
    }

    private func waitForFork() async {
        await state.withLock { $0.fork }?.value
    }

    /// The snapshot message of `version`, from the history of the view that published
    /// it.
    func snapshot(version: Int) -> SnapshotHistory.Lookup {
        let (view, forkedAt) = state.withLock { ($0.view, $0.forkedAt) }
        guard let forkedAt, version <= forkedAt else { return view.history.snapshot(version: version) }
        return shared.history.snapshot(version: version)
    }

    /// Ends the window: its stream stops, its own view (if any) stops loading.
    func close() {
        let (subscription, own, fork) = state.withLock { state in
            state.isClosed = true
            defer { state.subscription = nil }
            return (state.subscription, state.forkedAt == nil ? nil : state.view, state.fork)
        }
        subscription?.cancel()
        fork?.cancel()
        own?.close()
    }
}

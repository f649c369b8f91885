import LeaderboardFixtures
import ListPagination

/// The leaderboard as a server would hold it: every player in server order (score
/// descending, then id), changed by the live feed, served in keyset pages.
///
/// Pages are addressed by the key of the last row served (as `Fixtures/server.py`'s
/// cursor mode does), so rows that move meanwhile are neither skipped nor repeated, and
/// a page always carries current scores. The server also knows how far the client has
/// loaded (the *boundary*: the last row served since the first page), which decides
/// whether a feed event concerns the client: a change to a row inside the loaded range,
/// or one that moves a player into it, is pushed; anything further down arrives with
/// its page, already up to date.
final class LiveLeaderboard: Sendable {
    /// A position in server order.
    struct Key: Hashable, Sendable, Comparable {
        var score: Int
        var id: String

        init(_ player: Player) {
            score = player.score
            id = player.id
        }

        static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
        }
    }

    fileprivate struct State {
        /// Every player, in server order.
        var players: [Player]
        var byID: [String: Player]
        /// The key of the last row served since the first page, if any.
        var boundary: Key?
    }

    private let state: LockedState<State>

    /// Creates the server's list from the players in any order.
    init(players: [Player]) {
        let sorted = players.sorted { Key($0) < Key($1) }
        state = LockedState(State(players: sorted, byID: Dictionary(sorted.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }), boundary: nil))
    }

    /// The number of players on the server.
    var count: Int { state.withLock { $0.players.count } }

    /// Up to `limit` players after `cursor` (from the top when `nil`), and the cursor of
    /// the next page (`nil` after the last).
    ///
    /// - Complexity: O(log *n* + `limit`).
    func page(after cursor: Key?, limit: Int) -> (players: [Player], next: Key?) {
        state.withLock { state in
            let start = cursor.map { cursor in state.players.partitionIndex { cursor < Key($0) } } ?? 0
            let end = min(state.players.count, start + limit)
            let page = Array(state.players[start..<end])
            if let last = page.last {
                let key = Key(last)
                state.boundary = cursor == nil ? key : max(state.boundary ?? key, key)
            } else if cursor == nil {
                state.boundary = nil
            }
            let next = end < state.players.count ? page.last.map(Key.init) : nil
            return (page, next)
        }
    }

    /// Applies a feed event to the server's list.
    ///
    /// - Returns: the change the client should apply, or `nil` when the event names no
    ///   one (see ``FeedEvent/apply(to:)``) or concerns only rows below what the client
    ///   has loaded.
    /// - Complexity: O(*n*) array moves for *n* players.
    func apply(_ event: FeedEvent) -> FeedEvent.Change? {
        state.withLock { state -> FeedEvent.Change? in
            let before: Player? = switch event {
            case .score(let id, _), .leave(let id): state.byID[id]
            case .join: nil
            }
            guard let change = event.apply(to: &state.byID) else { return nil }
            if let before {
                let index = state.players.partitionIndex { !(Key($0) < Key(before)) }
                if index < state.players.count && state.players[index].id == before.id { state.players.remove(at: index) }
            }
            var concernsClient = before.map { state.isLoaded(Key($0)) } ?? false
            if case .add(let player) = change {
                let index = state.players.partitionIndex { Key(player) < Key($0) }
                state.players.insert(player, at: index)
                concernsClient = concernsClient || state.isLoaded(Key(player))
            }
            return concernsClient ? change : nil
        }
    }
}

extension LiveLeaderboard.State {
    /// Whether a row at `key` is within what the client has loaded.
    fileprivate func isLoaded(_ key: LiveLeaderboard.Key) -> Bool {
        guard let boundary else { return false }
        return !(boundary < key)
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false and then
    /// true along the array.
    func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Makes loads fail on demand: the demo's `f` key.
final class FailureSwitch: Sendable {
    private let pending = LockedState(0)

    /// Makes the next `count` load attempts fail.
    func arm(_ count: Int) {
        pending.withLock { $0 = count }
    }

    /// Whether this attempt fails; uses up one armed failure.
    func takeFailure() -> Bool {
        pending.withLock { pending in
            guard pending > 0 else { return false }
            pending -= 1
            return true
        }
    }
}

/// A loader that waits a simulated latency before each load, and fails the loads the
/// ``FailureSwitch`` asks to fail.
struct DemoLoader<Base: PageLoader>: PageLoader {
    let base: Base
    let latency: Duration
    let failures: FailureSwitch

    func loadPage(at cursor: Base.Cursor?) async throws -> Page<Base.Item, Base.Cursor> {
        if latency > .zero {
            try await Task.sleep(for: latency)
        }
        if failures.takeFailure() {
            throw PaginationError.transport(url: nil, description: "simulated network failure (f)")
        }
        return try await base.loadPage(at: cursor)
    }
}

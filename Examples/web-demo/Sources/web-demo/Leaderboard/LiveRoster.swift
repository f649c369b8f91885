import LeaderboardFixtures
import ListPagination
import Synchronization

/// A player's place in the leaderboard's order: score, best first, then id. Unique, so
/// it names one place between two rows for keyset pages.
struct RankKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    let score: Int
    let id: String

    init(_ player: Player) {
        score = player.score
        id = player.id
    }

    /// Whether `player` sorts before the place this key names (as `Player.<` does).
    func follows(_ player: Player) -> Bool {
        player.score != score ? player.score > score : player.id < id
    }

    /// Leaderboard order: the better score first, then the smaller id.
    static func < (lhs: RankKey, rhs: RankKey) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
    }

    var description: String { "(\(score), \(id))" }
}

/// Every player as the live feed has left them, loaded into a window or not: the source
/// the windows page through.
///
/// The feed updates it event by event (O(1) each). Keyset queries (``page(at:count:)``)
/// read it in the leaderboard's order, from a sorted copy made on demand: the copy is
/// made again only for the first query after a change, so a feed event costs no
/// sorting, and however many windows load pages between two events, they share one
/// sort. A page is the players as they stand when it is read.
final class LiveRoster: Sendable {
    private struct State {
        var players: [String: Player]
        /// The players in the leaderboard's order, or `nil` after a change.
        var sorted: [Player]?
    }

    private let state: Mutex<State>

    init(_ roster: [Player]) {
        state = Mutex(State(players: Dictionary(roster.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })))
    }

    /// Players on the roster.
    var count: Int { state.withLock { $0.players.count } }

    /// Applies a feed event; returns what it changes (nil when it names no one new).
    ///
    /// - Complexity: O(1).
    func apply(_ event: FeedEvent) -> FeedEvent.Change? {
        state.withLock { state in
            let change = event.apply(to: &state.players)
            if change != nil { state.sorted = nil }
            return change
        }
    }

    /// The rows of the keyset page at `cursor`, as `KeysetLoader` asks for them: the
    /// first `count` players for `nil`, the `count` players right after the key for
    /// `.after`, the `count` right before it for `.before`, and for `.through` those and
    /// the player at the key, if one is there now.
    ///
    /// - Complexity: O(log *n*), plus O(*n* log *n*) for the first query after a change.
    func page(at cursor: KeysetCursor<RankKey>?, count: Int) -> [Player] {
        state.withLock { state in
            let sorted = Self.sorted(&state)
            switch cursor {
            case nil:
                return Array(sorted.prefix(count))
            case .after(let key)?:
                // The first player after the key: neither before it nor at it.
                let start = Self.partition(sorted) { key.follows($0) || RankKey($0) == key }
                return Array(sorted[start ..< min(sorted.count, start + count)])
            case .before(let key)?:
                let end = Self.partition(sorted) { key.follows($0) }
                return Array(sorted[max(0, end - count) ..< end])
            case .through(let key)?:
                var end = Self.partition(sorted) { key.follows($0) }
                if end < sorted.count, RankKey(sorted[end]) == key { end += 1 }
                return Array(sorted[max(0, end - count) ..< end])
            }
        }
    }

    /// The rank (1 for the best) `player` would have on the roster now: 1 + the players
    /// who sort before it.
    ///
    /// - Complexity: O(log *n*), plus O(*n* log *n*) for the first query after a change.
    func rank(of player: Player) -> Int {
        state.withLock { state in
            let key = RankKey(player)
            return Self.partition(Self.sorted(&state)) { key.follows($0) } + 1
        }
    }

    private static func sorted(_ state: inout State) -> [Player] {
        if let sorted = state.sorted { return sorted }
        let sorted = state.players.values.sorted(by: <)
        state.sorted = sorted
        return sorted
    }

    /// The index of the first player for whom `isBefore` is false; `isBefore` holds for
    /// a prefix of `sorted`.
    private static func partition(_ sorted: [Player], _ isBefore: (Player) -> Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(sorted[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

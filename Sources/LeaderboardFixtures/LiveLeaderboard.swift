import ListEngine

/// The leaderboard as a server would hold it: every player in server order (score
/// descending, then id), changed by the live feed, served in keyset pages.
///
/// Pages are addressed by the key of the last row served (as `Fixtures/server.py`'s
/// cursor mode does), so rows that move meanwhile are neither skipped nor repeated, and
/// a page always carries current scores. The server also knows how far the client has
/// loaded (the *boundary*: the last row served since the first page, or every row once
/// the last page was served), which decides whether a feed event concerns the client: a
/// change to a row inside the loaded range, or one that moves a player into it, is
/// pushed; anything further down arrives with its page, already up to date.
public final class LiveLeaderboard: Sendable {
    /// A position in server order: a page's cursor.
    public struct Key: Hashable, Sendable, Comparable {
        /// The score of the row at this position.
        public var score: Int
        /// The id of the row at this position.
        public var id: String

        /// The position of `player`.
        ///
        /// - Parameter player: a player.
        public init(_ player: Player) {
            score = player.score
            id = player.id
        }

        /// The position of a row with this score and id.
        ///
        /// - Parameters:
        ///   - score: the row's score.
        ///   - id: the row's id.
        public init(score: Int, id: String) {
            self.score = score
            self.id = id
        }

        /// Server order: higher scores first, then ids in ascending order.
        ///
        /// - Parameters:
        ///   - lhs: a position.
        ///   - rhs: another position.
        /// - Returns: whether `lhs` comes first.
        public static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
        }
    }

    /// How far the client has loaded.
    fileprivate enum Boundary {
        /// Nothing since the first page was last asked for.
        case none
        /// Down to the row with this key, the last served since the first page.
        case through(Key)
        /// Every row: the last page was served, so a row added below the last one
        /// concerns the client too (no page will bring it).
        case all
    }

    fileprivate struct State {
        /// Every player, in server order.
        var players: [Player]
        var byID: [String: Player]
        var boundary: Boundary = .none
    }

    private let state: LockedState<State>

    /// Creates the server's list from the players in any order; of players that share
    /// an id, the last one counts, as when they are added to a list one by one.
    ///
    /// - Parameter players: the players, in any order.
    /// - Complexity: O(*n* log *n*) for *n* players.
    public init(players: [Player]) {
        var byID: [String: Player] = [:]
        for player in players { byID[player.id] = player }
        let sorted = byID.values.sorted { Key($0) < Key($1) }
        state = LockedState(State(players: sorted, byID: byID))
    }

    /// The number of players on the server.
    ///
    /// - Complexity: O(1).
    public var count: Int { state.withLock { $0.players.count } }

    /// Up to `limit` players after `cursor` (from the top when `nil`), and the cursor of
    /// the next page (`nil` after the last). Asking for the first page starts the
    /// client's loaded range again.
    ///
    /// - Parameters:
    ///   - cursor: the key of the last row of the page before, or `nil` for the first.
    ///   - limit: the most players to return.
    /// - Returns: the players, in server order, and the next page's cursor.
    /// - Complexity: O(log *n* + `limit`).
    public func page(after cursor: Key?, limit: Int) -> (players: [Player], next: Key?) {
        state.withLock { state in
            let start = cursor.map { cursor in state.players.partitionIndex { cursor < Key($0) } } ?? 0
            let end = min(state.players.count, start + limit)
            let page = Array(state.players[start..<end])
            if end == state.players.count {
                state.boundary = .all
            } else if let last = page.last.map(Key.init) {
                switch (cursor, state.boundary) {
                case (nil, _), (_, .none): state.boundary = .through(last)
                case (_, .through(let boundary)): state.boundary = .through(max(boundary, last))
                case (_, .all): break
                }
            } else if cursor == nil {
                state.boundary = .none
            }
            let next = end < state.players.count ? page.last.map(Key.init) : nil
            return (page, next)
        }
    }

    /// Applies a feed event to the server's list.
    ///
    /// - Parameter event: the feed event.
    /// - Returns: the change the client should apply, or `nil` when the event names no
    ///   one (see ``FeedEvent/apply(to:)``) or concerns only rows below what the client
    ///   has loaded.
    /// - Complexity: O(*n*) array moves for *n* players.
    public func apply(_ event: FeedEvent) -> FeedEvent.Change? {
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
        switch boundary {
        case .none: false
        case .through(let boundary): !(boundary < key)
        case .all: true
        }
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, which must be false and then
    /// true along the array.
    fileprivate func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

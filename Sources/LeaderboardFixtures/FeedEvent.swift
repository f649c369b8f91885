/// One event of the live leaderboard feed (`leaderboard/feed.json`).
///
/// ```json
/// {"op":"score","id":"p01478","score":97456}
/// {"op":"join","player":{"id":"p03001","name":"…","score":67686,"country":"CA"}}
/// {"op":"leave","id":"p01235"}
/// ```
public enum FeedEvent: Hashable, Sendable {
    /// A player's score changed.
    case score(id: String, score: Int)
    /// A new player joined.
    case join(Player)
    /// A player left.
    case leave(id: String)

    /// What the event does to a list of players, given the current players by id.
    public enum Change: Hashable, Sendable {
        /// Add (or update) this player.
        case add(Player)
        /// Remove the player with this id.
        case remove(id: String)
    }

    /// Applies the event to `roster` and returns the change for a list.
    ///
    /// - Parameter roster: the current players by id; updated.
    /// - Returns: the change, or `nil` if the event names a player that is not in
    ///   `roster` (a score update or departure of an unknown player, or a join of a
    ///   player already there).
    /// - Complexity: O(1) expected.
    public func apply(to roster: inout [String: Player]) -> Change? {
        switch self {
        case .score(let id, let score):
            guard var player = roster[id] else { return nil }
            player.score = score
            roster[id] = player
            return .add(player)
        case .join(let player):
            guard roster[player.id] == nil else { return nil }
            roster[player.id] = player
            return .add(player)
        case .leave(let id):
            guard roster.removeValue(forKey: id) != nil else { return nil }
            return .remove(id: id)
        }
    }
}

extension FeedEvent: Decodable {
    private enum CodingKeys: String, CodingKey {
        case op, id, score, player
    }

    /// Decodes an event from its `op` and the members that op needs: `id` and `score`
    /// for `score`, `player` for `join`, `id` for `leave`.
    ///
    /// - Parameter decoder: the decoder positioned at the event object.
    /// - Throws: `DecodingError` for a missing or mistyped member, or
    ///   `DecodingError.dataCorrupted` naming the `op` key for an unknown op.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .op) {
        case "score":
            self = .score(id: try container.decode(String.self, forKey: .id), score: try container.decode(Int.self, forKey: .score))
        case "join":
            self = .join(try container.decode(Player.self, forKey: .player))
        case "leave":
            self = .leave(id: try container.decode(String.self, forKey: .id))
        case let op:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "unknown op \"\(op)\"; expected score, join or leave")
        }
    }
}

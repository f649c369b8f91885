import LeaderboardFixtures
import ListPagination

/// Where the players are: in this process's memory (``LiveRoster``), or in a PostgreSQL
/// table that several instances share (``PostgresRoster``).
protocol PlayerStore: Sendable {
    /// The rows of the keyset page at `cursor`, as `KeysetLoader` asks for them.
    func page(at cursor: KeysetCursor<RankKey>?, count: Int) async throws -> [Player]

    /// The rank (1 for the best) `player` has now: 1 + the players who sort before it.
    func rank(of player: Player) async throws -> Int

    /// About how many players there are (for `/status`).
    var playerCount: Int { get }
}

extension LiveRoster: PlayerStore {
    var playerCount: Int { count }
}

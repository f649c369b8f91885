import LeaderboardFixtures
import Synchronization

/// Every player as the live feed has left them, loaded into the list or not.
///
/// The feed updates it event by event; pages loaded later are corrected with it, so a
/// page never brings back a score the feed has already changed, nor a player who left.
final class LiveRoster: Sendable {
    private let players: Mutex<[String: Player]>

    init(_ roster: [Player]) {
        players = Mutex(Dictionary(uniqueKeysWithValues: roster.map { ($0.id, $0) }))
    }

    /// Applies a feed event; returns what it changes (nil when it names no one new).
    func apply(_ event: FeedEvent) -> FeedEvent.Change? {
        players.withLock { event.apply(to: &$0) }
    }

    /// The page as it stands now: current scores, without players who left.
    func current(_ page: [Player]) -> [Player] {
        players.withLock { players in page.compactMap { players[$0.id] } }
    }
}

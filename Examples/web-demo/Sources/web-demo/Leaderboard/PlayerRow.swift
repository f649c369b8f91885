import LeaderboardFixtures
import WebListRenderer

/// How a player is shown in the browser: name, country and score. The name is escaped
/// (the fixtures hold names with markup and quotes); the rank is a CSS counter, so a
/// score change moves one row instead of renumbering every row below it.
enum PlayerRow {
    static let format = WebListFormat<Player> { player in
        "<span class=\"name\">\(player.name)</span><span class=\"country\">\(player.country)</span><span class=\"score\">\(player.formattedScore)</span>"
    }
}

import ListEngine

/// A row of the demo leaderboard: a player with a score and a country.
///
/// The default order is the server's: score descending, then id ascending, so two
/// players never tie. ``byName`` orders by name instead (for `sort(by:)`).
///
/// ```swift
/// let board = ListDataSource<Player>()
/// board.add(try FixtureDirectory.locate().loadPlayers())
/// board.sort(by: Player.byName)
/// ```
public struct Player: Hashable, DataSourceComparable, Codable, Sendable {
    /// The unique id, such as `p00042`.
    public var id: String
    /// The display name; may hold any Unicode, and markup that must be escaped.
    public var name: String
    /// The score, 0 … 99,999 in the fixtures.
    public var score: Int
    /// An ISO 3166 alpha-2 country code.
    public var country: String

    /// Creates a player.
    ///
    /// - Parameters:
    ///   - id: the unique id, such as `p00042`.
    ///   - name: the display name.
    ///   - score: the score.
    ///   - country: an ISO 3166 alpha-2 country code.
    public init(id: String, name: String, score: Int, country: String) {
        self.id = id
        self.name = name
        self.score = score
        self.country = country
    }

    /// Server order: higher score first, then lower id.
    ///
    /// - Parameters:
    ///   - lhs: a player.
    ///   - rhs: another player.
    /// - Returns: whether `lhs` has the higher score, or the same score and the lower id.
    /// - Complexity: O(1) plus one string comparison on equal scores.
    public static func < (lhs: Player, rhs: Player) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
    }

    /// Server order (the default): score descending, then id ascending.
    public static let byScore: @Sendable (Player, Player) -> Bool = { $0 < $1 }

    /// By name (Unicode scalar order), then id.
    public static let byName: @Sendable (Player, Player) -> Bool = { lhs, rhs in
        lhs.name != rhs.name ? lhs.name < rhs.name : lhs.id < rhs.id
    }
}

extension Player: CustomStringConvertible {
    /// The player as `id name score country`, such as `p00042 Ana 12345 PT`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String { "\(id) \(name) \(score) \(country)" }

    /// The score with thousands separators, independent of the locale: `12345` → `"12,345"`.
    ///
    /// - Complexity: O(*d*) for *d* digits.
    public var formattedScore: String {
        let digits = String(score.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return score < 0 ? "-" + grouped : grouped
    }
}

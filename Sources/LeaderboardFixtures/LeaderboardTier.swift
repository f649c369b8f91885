/// A band of scores on the leaderboard, from ``diamond`` at the top to ``bronze``.
///
/// A score belongs to the highest tier whose ``minimumScore`` it reaches: diamond from
/// 90,000, platinum from 75,000, gold from 50,000, silver from 25,000, and bronze below
/// that (negative scores included). The tiers compare in leaderboard order, best first,
/// so sections keyed by tier and ordered by key follow a board sorted by score
/// descending: Diamond first, Bronze last.
///
/// ```swift
/// let tier = LeaderboardTier(score: 91_250)   // .diamond
/// tier.name                                   // "Diamond"
/// LeaderboardTier.diamond < .bronze           // true: diamond comes first
/// let sections = Dictionary(grouping: players, by: \.tier).sorted { $0.key < $1.key }
/// ```
public enum LeaderboardTier: Hashable, Comparable, Sendable, CaseIterable {
    /// Scores of 90,000 and above.
    case diamond
    /// Scores from 75,000 to 89,999.
    case platinum
    /// Scores from 50,000 to 74,999.
    case gold
    /// Scores from 25,000 to 49,999.
    case silver
    /// Scores below 25,000.
    case bronze

    /// The tier of `score`: the first of `allCases` whose ``minimumScore`` it reaches.
    ///
    /// - Parameter score: a score; anything below 25,000, negative included, is bronze,
    ///   and anything from 90,000 up, beyond 99,999 included, is diamond.
    /// - Complexity: O(1): at most four comparisons.
    public init(score: Int) {
        self = Self.allCases.first { score >= $0.minimumScore } ?? .bronze
    }

    /// The lowest score in the tier; `Int.min` for ``bronze``, which has no floor.
    ///
    /// - Complexity: O(1).
    public var minimumScore: Int {
        switch self {
        case .diamond: 90_000
        case .platinum: 75_000
        case .gold: 50_000
        case .silver: 25_000
        case .bronze: .min
        }
    }

    /// The name to show, capitalised: `"Diamond"`, `"Platinum"`, `"Gold"`, `"Silver"`
    /// or `"Bronze"`.
    ///
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .diamond: "Diamond"
        case .platinum: "Platinum"
        case .gold: "Gold"
        case .silver: "Silver"
        case .bronze: "Bronze"
        }
    }
}

extension Player {
    /// The tier of the player's score.
    ///
    /// ```swift
    /// Player(id: "p00042", name: "Ana", score: 75_000, country: "PT").tier  // .platinum
    /// ```
    ///
    /// - Complexity: O(1).
    public var tier: LeaderboardTier { LeaderboardTier(score: score) }
}

import LeaderboardFixtures
import WebListRenderer

/// How the grouped page shows the tiers: one section per tier, keyed by the tier's case
/// name (`diamond` … `bronze`), titled with its name and score band; rows as on the flat
/// page.
enum TierSections {
    static let format = SectionedWebListFormat<LeaderboardTier, Player>(
        rows: PlayerRow.format,
        key: { tier in "\(tier)" },
        title: { tier in "\(tier.name) · \(band(of: tier))" }
    )

    /// The tier's scores as text, as `LeaderboardTier.minimumScore` draws them.
    static func band(of tier: LeaderboardTier) -> String {
        switch tier {
        case .diamond: "90,000 and up"
        case .platinum: "75,000–89,999"
        case .gold: "50,000–74,999"
        case .silver: "25,000–49,999"
        case .bronze: "below 25,000"
        }
    }
}

import LeaderboardFixtures
import Testing

@Suite struct LeaderboardTierTests {
    @Test func eachBoundaryBelongsToTheTierItStarts() {
        let expected: [(Int, LeaderboardTier)] = [
            (99_999, .diamond), (90_000, .diamond), (89_999, .platinum),
            (75_000, .platinum), (74_999, .gold),
            (50_000, .gold), (49_999, .silver),
            (25_000, .silver), (24_999, .bronze),
            (0, .bronze), (-1, .bronze), (.min, .bronze), (.max, .diamond),
        ]
        for (score, tier) in expected {
            #expect(LeaderboardTier(score: score) == tier, "score \(score)")
        }
    }

    @Test func minimumScoresAreTheBoundaries() {
        #expect(LeaderboardTier.allCases.map(\.minimumScore) == [90_000, 75_000, 50_000, 25_000, .min])
        for tier in LeaderboardTier.allCases where tier != .bronze {
            #expect(LeaderboardTier(score: tier.minimumScore) == tier)
            #expect(LeaderboardTier(score: tier.minimumScore - 1) > tier)
        }
    }

    @Test func theOrderIsBestFirstAsOnTheBoard() {
        #expect(LeaderboardTier.allCases == [.diamond, .platinum, .gold, .silver, .bronze])
        #expect(LeaderboardTier.allCases.sorted() == LeaderboardTier.allCases)
        #expect(LeaderboardTier.diamond < .platinum && LeaderboardTier.silver < .bronze)
        #expect(!(LeaderboardTier.gold < .gold))
        // Sections keyed by tier, ordered by key, follow a board sorted by score.
        let board = [12_000, 99_000, 50_000, 75_000, 30_000, 90_000].enumerated()
            .map { Player(id: "p\($0.offset)", name: "", score: $0.element, country: "SE") }
            .sorted(by: <)
        let sections = Dictionary(grouping: board, by: \.tier).sorted { $0.key < $1.key }
        #expect(sections.flatMap(\.value) == board)
        #expect(sections.map(\.key.name) == ["Diamond", "Platinum", "Gold", "Silver", "Bronze"])
    }

    @Test func namesAreCapitalised() {
        #expect(LeaderboardTier.allCases.map(\.name) == ["Diamond", "Platinum", "Gold", "Silver", "Bronze"])
    }

    @Test func aPlayersTierFollowsTheScore() {
        var player = Player(id: "p1", name: "Ann", score: 89_999, country: "SE")
        #expect(player.tier == .platinum)
        player.score = 90_000
        #expect(player.tier == .diamond)
        player.score = 24_999
        #expect(player.tier == .bronze)
    }
}

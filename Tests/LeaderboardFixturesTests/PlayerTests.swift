import Foundation
import LeaderboardFixtures
import Testing

@Suite struct PlayerTests {
    static let a = Player(id: "p00001", name: "Zoë", score: 500, country: "SE")
    static let b = Player(id: "p00002", name: "Ann", score: 900, country: "US")
    static let c = Player(id: "p00003", name: "Ann", score: 500, country: "JP")

    @Test func defaultOrderIsScoreDescendingThenIdAscending() {
        #expect([Self.a, Self.b, Self.c].sorted(by: <) == [Self.b, Self.a, Self.c])
        #expect([Self.c, Self.a, Self.b].sorted(by: Player.byScore) == [Self.b, Self.a, Self.c])
        #expect(!(Self.a < Self.a))
    }

    @Test func byNameOrdersByNameThenId() {
        #expect([Self.a, Self.c, Self.b].sorted(by: Player.byName) == [Self.b, Self.c, Self.a])
    }

    @Test func codableRoundTripKeepsUnicodeAndMarkup() throws {
        let player = Player(id: "p00007", name: #"O'Connor <script>alert("x")</script> 👩‍💻"#, score: 1, country: "IE")
        let data = try JSONEncoder().encode(player)
        #expect(try JSONDecoder().decode(Player.self, from: data) == player)
    }

    @Test func equalityIsContentAndIdentityIsId() {
        var moved = Self.a
        moved.score = 1
        #expect(moved.id == Self.a.id)
        #expect(moved != Self.a)
    }

    @Test func formattedScoreGroupsThousandsWithoutLocale() {
        let scores = [0: "0", 7: "7", 999: "999", 1_000: "1,000", 12_345: "12,345", 1_234_567: "1,234,567", -4_500: "-4,500"]
        for (score, text) in scores {
            #expect(Player(id: "x", name: "", score: score, country: "SE").formattedScore == text)
        }
    }
}

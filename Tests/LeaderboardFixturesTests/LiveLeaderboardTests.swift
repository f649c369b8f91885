import LeaderboardFixtures
import Testing

/// The server's list: keyset pages, and which feed events concern what the client loaded.
@Suite struct LiveLeaderboardTests {
    static func player(_ number: Int, score: Int) -> Player {
        Player(id: "p\(number)", name: "Player \(number)", score: score, country: "GB")
    }

    /// Ten players scoring 100, 90, …, 10.
    static let players = (0 ..< 10).map { player($0, score: 100 - $0 * 10) }

    @Test("pages come in server order, each after the last row of the one before, until the last")
    func pages() {
        let server = LiveLeaderboard(players: Self.players.reversed())
        let first = server.page(after: nil, limit: 4)
        #expect(first.players.map(\.id) == ["p0", "p1", "p2", "p3"])
        let second = server.page(after: first.next, limit: 4)
        #expect(second.players.map(\.id) == ["p4", "p5", "p6", "p7"])
        let last = server.page(after: second.next, limit: 4)
        #expect(last.players.map(\.id) == ["p8", "p9"])
        #expect(last.next == nil)
        #expect(server.count == 10)
    }

    @Test("of players sharing an id, the last one counts, once")
    func repeatedID() {
        let server = LiveLeaderboard(players: [Self.player(1, score: 99_999), Self.player(2, score: 50), Self.player(1, score: 0)])
        #expect(server.count == 2)
        let page = server.page(after: nil, limit: 10)
        #expect(page.players.map(\.id) == ["p2", "p1"])
        #expect(page.players.last?.score == 0)
    }

    @Test("events inside the loaded rows are pushed, those below wait for their page")
    func eventsBelowTheLoadedRowsWait() {
        let server = LiveLeaderboard(players: Self.players)
        let first = server.page(after: nil, limit: 4)  // down to p3, at 70
        #expect(server.apply(.score(id: "p1", score: 95)) == .add(Self.player(1, score: 95)))
        #expect(server.apply(.score(id: "p8", score: 15)) == nil, "below the loaded rows")
        #expect(server.apply(.score(id: "p9", score: 85)) == .add(Self.player(9, score: 85)), "moves into the loaded rows")
        #expect(server.apply(.score(id: "p2", score: 5)) == .add(Self.player(2, score: 5)), "leaves the loaded rows: the client must move it")
        #expect(server.apply(.join(Self.player(20, score: 1))) == nil, "joins below")
        #expect(server.apply(.leave(id: "p6")) == nil, "leaves below")
        let second = server.page(after: first.next, limit: 4)
        #expect(second.players.map(\.id) == ["p4", "p5", "p7", "p8"], "the next page is up to date")
    }

    @Test("once the last page is served, a player who joins below the last row is pushed")
    func joinsAfterTheLastPage() {
        let server = LiveLeaderboard(players: Self.players)
        var page = server.page(after: nil, limit: 4)
        while let next = page.next { page = server.page(after: next, limit: 4) }
        let newcomer = Self.player(30, score: 0)
        #expect(server.apply(.join(newcomer)) == .add(newcomer))
        // Asking for the first page again starts the loaded range again.
        _ = server.page(after: nil, limit: 4)
        #expect(server.apply(.join(Self.player(31, score: 1))) == nil)
    }

    @Test("an empty server has served everything with its first page: a join is pushed")
    func emptyServer() {
        let server = LiveLeaderboard(players: [])
        #expect(server.apply(.join(Self.player(1, score: 5))) == nil, "nothing was asked for yet")
        let page = server.page(after: nil, limit: 4)
        #expect(page.players.map(\.id) == ["p1"])
        #expect(server.apply(.join(Self.player(2, score: 1))) == .add(Self.player(2, score: 1)))
    }
}

import LeaderboardFixtures
import ListEngineTesting
@testable import ListPagination
import ListTestSupport
import Testing

/// The generated leaderboard against an oracle: every player in a sorted array.
@Suite(.timeLimit(.minutes(5))) struct GeneratedLeaderboardTests {
    typealias Key = GeneratedLeaderboard.Key

    /// Every player, in list order, as `source` now has them (read one by one by id).
    static func oracle(_ source: GeneratedLeaderboard) -> [Player] {
        (0..<source.count).compactMap { source.player(id: GeneratedLeaderboard.id(at: $0)) }.sorted(by: <)
    }

    /// What a keyset page must hold, from the oracle.
    static func expectedPage(_ cursor: KeysetCursor<Key>?, limit: Int, in all: [Player]) -> [Player] {
        switch cursor {
        case nil: Array(all.prefix(limit))
        case .after(let key)?: Array(all.filter { key < Key($0) }.prefix(limit))
        case .before(let key)?: Array(all.filter { Key($0) < key }.suffix(limit))
        case .through(let key)?: Array(all.filter { !(key < Key($0)) }.suffix(limit))
        }
    }

    @Test func playersAreTheSameOnEveryRunAndSortedByRank() {
        let source = GeneratedLeaderboard(count: 1_000)
        let again = GeneratedLeaderboard(count: 1_000)
        let players = (0..<1_000).map(source.basePlayer(at:))
        #expect(players == (0..<1_000).map(again.basePlayer(at:)))
        #expect(players == players.sorted(by: <), "rank order is list order")
        #expect(players.first?.score == 99_999 && players.last?.score == 0)
        #expect(Set(players.map(\.id)).count == 1_000)
        #expect(GeneratedLeaderboard.id(at: 42) == "p00000042")
        #expect(source.player(id: "p00001000") == nil && source.player(id: "someone") == nil)
        #expect(source.setScore(of: "p00001000", to: 5) == nil)
    }

    @Test func tenMillionPlayersCostNothingUntilAsked() {
        let source = GeneratedLeaderboard(count: GeneratedLeaderboard.maximumCount)
        let last = source.page(.before(GeneratedLeaderboard.end), limit: 3)
        #expect(last.map(\.id) == ["p09999997", "p09999998", "p09999999"])
        #expect(last.map(source.rank(of:)) == [9_999_997, 9_999_998, 9_999_999])
        #expect(source.page(nil, limit: 2).map(source.rank(of:)) == [0, 1])
    }

    /// Random score changes, then random pages and ranks against the oracle, over seeds.
    @Test func pagesAndRanksMatchTheOracleAfterRandomChanges() {
        for seed: UInt64 in 0..<150 {
            var random = SplitMix64(seed: seed)
            let count = [1, 7, 60, 240][random.int(in: 0..<4)]
            let source = GeneratedLeaderboard(count: count)
            for _ in 0..<random.int(in: 0..<40) {
                let id = GeneratedLeaderboard.id(at: random.int(in: 0..<count))
                source.setScore(of: id, to: random.int(in: 0..<100_000))
            }
            let all = Self.oracle(source)
            for (rank, player) in all.enumerated() where source.rank(of: player) != rank {
                Issue.record("seed \(seed): \(player.id) ranks \(source.rank(of: player)), expected \(rank)")
                return
            }
            for _ in 0..<20 {
                // Keys of players, and keys between or beyond them.
                let key: Key = if random.chance(0.5), !all.isEmpty {
                    Key(all[random.int(in: 0..<all.count)])
                } else {
                    Key(score: random.int(in: -1..<100_001), id: GeneratedLeaderboard.id(at: random.int(in: 0..<count + 1)))
                }
                let cursor: KeysetCursor<Key>? = switch random.int(in: 0..<4) {
                case 0: nil
                case 1: .after(key)
                case 2: .before(key)
                default: .through(key)
                }
                let limit = random.int(in: 1..<12)
                let page = source.page(cursor, limit: limit)
                let expected = Self.expectedPage(cursor, limit: limit, in: all)
                if page != expected {
                    Issue.record("seed \(seed): page \(cursor.map(String.init(describing:)) ?? "first") of \(limit): \(page.map(\.id)), expected \(expected.map(\.id))")
                    return
                }
            }
        }
    }

    @Test func liveChangesAreTheSameOnEveryRunAndFavorTheGivenPlayers() {
        let source = GeneratedLeaderboard(count: 100_000)
        let again = GeneratedLeaderboard(count: 100_000)
        let favored = source.page(nil, limit: 50)
        let changes = source.playChanges(400, favoring: favored)
        #expect(changes == again.playChanges(400, favoring: favored))
        let favoredIDs = Set(favored.map(\.id))
        let toFavored = changes.filter { favoredIDs.contains($0.id) }.count
        #expect((250...350).contains(toFavored), "about three in four: \(toFavored) of 400")
        for change in changes.suffix(50) {
            #expect(source.player(id: change.id)?.score ?? -1 >= 0)
        }
        // 30 ranks' worth of points at 100,000 players is 30 points.
        let first = favored[0]
        let moved = changes.first { $0.id == first.id }
        if let moved { #expect(abs(moved.score - first.score) <= 30 * 30) }
    }

    /// The wiring of `list-demo --players`: a keyset loader over the generated source,
    /// a windowed paginator, and live changes through `upsert`. After every step the
    /// loaded rows are one contiguous slice of the source, with their true ranks.
    @Test func aWindowOverTheGeneratedSourceStaysAContiguousSliceUnderLiveChanges() async {
        let source = GeneratedLeaderboard(count: 2_000)
        let loader = KeysetLoader<Player, Key>(limit: 20, key: Key.init) { cursor, count in
            source.page(cursor, limit: count)
        }
        let paginator = Paginator(
            dataSource: ListDataSource<Player>(), loader: loader, prefetchDistance: 5, maxLoadedRows: 80,
            loadingIndicatorDelay: .zero, retryPolicy: .none, clock: ManualClock()
        )
        func settle() async -> [Player] {
            await waitUntil("the paginator is quiet") { paginator._isQuiet }
            return Array(await paginator.dataSource.flush())
        }
        var random = SplitMix64(seed: 31)
        paginator.jump(to: .before(GeneratedLeaderboard.end))
        var rows = await settle()
        #expect(rows.last.map(source.rank(of:)) == 1_999)
        for step in 0..<120 {
            switch random.int(in: 0..<4) {
            case 0 where !rows.isEmpty: paginator.itemDidAppear(at: 0)
            case 1 where !rows.isEmpty: paginator.itemDidAppear(at: rows.count - 1)
            default: paginator.upsert(source.playChanges(5, favoring: rows))
            }
            rows = await settle()
            let all = Self.oracle(source)
            guard let first = rows.first, let start = all.firstIndex(of: first) else {
                Issue.record("step \(step): the window is empty or holds a row the source does not")
                return
            }
            let slice = all[start..<min(all.count, start + rows.count)]
            guard slice.elementsEqual(rows), rows.count <= 80, source.rank(of: first) == start else {
                Issue.record("step \(step): \(rows.count) rows from rank \(source.rank(of: first)), the source's \(slice.map(\.id)) from \(start), loaded \(rows.map(\.id))")
                return
            }
        }
    }
}

import ListPagination
import Testing

// The Windows article's example, kept compiling and checked against a source of 100,000 rows.

private struct Player: Hashable, DataSourceComparable {
    let id: Int
    let rank: Int
    static func < (lhs: Player, rhs: Player) -> Bool { lhs.rank < rhs.rank }
}

/// A source that pages by rank, as a database would with `WHERE rank > ?`.
private struct PlayerAPI: Sendable {
    let count: Int

    func players(_ cursor: KeysetCursor<Int>?, _ limit: Int) async throws -> [Player] {
        let ranks: Range<Int>
        switch cursor {
        case nil: ranks = 0 ..< min(limit, count)
        case .after(let rank)?: ranks = min(rank + 1, count) ..< min(rank + 1 + limit, count)
        case .before(let rank)?: ranks = max(0, rank - limit) ..< max(0, min(rank, count))
        case .through(let rank)?: ranks = max(0, rank + 1 - limit) ..< max(0, min(rank + 1, count))
        }
        return ranks.map { Player(id: $0, rank: $0) }
    }
}

@Suite struct WindowsArticleExampleTests {
    @Test("the Windows article's paginator loads the first page of its keyset source")
    func firstPage() async {
        let api = PlayerAPI(count: 100_000)
        let players = ListDataSource<Player>()
        let paginator = Paginator(
            dataSource: players,
            loader: KeysetLoader<Player, Int>(limit: 100, key: \.rank) { cursor, count in
                try await api.players(cursor, count)   // rows after, before or through a rank
            },
            prefetchDistance: 30,
            maxLoadedRows: 1_000
        )
        paginator.loadNextPage()
        for await status in paginator.statuses() where status.loadedPages == 1 && status.append == .idle { break }
        let rows = await players.flush()
        #expect(rows.map(\.rank) == Array(0..<100))
        #expect(paginator.status.prepend == .exhausted)
    }
}

import ListEngineTesting
@testable import ListPagination
import ListTestSupport
import Testing

@Suite struct KeysetLoaderTests {
    /// Rows 0…24 with keys 0, 10, …, 240, and the fetches made.
    final class Table: Sendable {
        let rows = LockedState((0..<25).map { TestRow(id: $0, key: $0 * 10) })
        let fetches = LockedState<[String]>([])

        func fetch(_ cursor: KeysetCursor<Int>?, _ count: Int) -> [TestRow] {
            fetches.withLock { $0.append(cursor.map(String.init(describing:)) ?? "first") }
            return rows.withLock { rows in
                let selected: [TestRow] = switch cursor {
                case nil: Array(rows.prefix(count))
                case .after(let key)?: Array(rows.filter { $0.key > key }.prefix(count))
                case .before(let key)?: Array(rows.filter { $0.key < key }.suffix(count))
                case .through(let key)?: Array(rows.filter { $0.key <= key }.suffix(count))
                }
                return selected.shuffled()  // any order: the loader sorts
            }
        }

        func loader(limit: Int = 10) -> KeysetLoader<TestRow, Int> {
            KeysetLoader(limit: limit, key: \.key) { cursor, count in self.fetch(cursor, count) }
        }
    }

    @Test func walksForwardsAndBackwardsWithoutAnExtraRequestAtEitherEnd() async throws {
        let table = Table()
        let loader = table.loader()
        var pages: [[Int]] = []
        var cursor: KeysetCursor<Int>? = nil
        var last: Page<TestRow, KeysetCursor<Int>>
        repeat {
            last = try await loader.loadPage(at: cursor)
            pages.append(last.items.map(\.id))
            cursor = last.nextCursor
        } while cursor != nil
        #expect(pages == [Array(0..<10), Array(10..<20), Array(20..<25)])
        #expect(table.fetches.withLock { $0 } == ["first", "after 90", "after 190"])
        #expect(last.previousCursor == .before(200))
        // Backwards from the last page: pages end right before the row they are keyed on.
        var backwards: [[Int]] = []
        cursor = last.previousCursor
        while let previous = cursor {
            let page = try await loader.loadPage(at: previous)
            #expect(page.nextCursor == page.items.last.map { .after($0.key) })
            backwards.append(page.items.map(\.id))
            cursor = page.previousCursor
        }
        #expect(backwards == [Array(10..<20), Array(0..<10)])
        #expect(table.fetches.withLock { $0.suffix(2) } == ["before 200", "before 100"])
    }

    @Test func pagesStayExactWhileRowsChangeAroundTheirKeys() async throws {
        let table = Table()
        let loader = table.loader(limit: 5)
        let first = try await loader.loadPage(at: nil)
        let next = try #require(first.nextCursor)
        #expect(next == .after(40))
        // Rows before the cursor go, rows after it come: the next page starts right after row 4.
        table.rows.withLock { rows in
            rows.removeFirst(3)
            rows.insert(TestRow(id: 100, key: 45), at: 2)
        }
        #expect(try await loader.loadPage(at: next).items.map(\.id) == [100, 5, 6, 7, 8])
        #expect(try await loader.loadPage(at: .before(50)).items.map(\.id) == [3, 4, 100])
        #expect(try await loader.loadPage(at: .before(50)).previousCursor == nil)
    }

    @Test func anEmptyPagePastTheEndNamesTheRowsUpToItsKey() async throws {
        let loader = Table().loader()
        let past = try await loader.loadPage(at: .after(240))
        #expect(past.items.isEmpty && past.nextCursor == nil)
        #expect(past.previousCursor == .through(240))
        let before = try await loader.loadPage(at: .through(240))
        #expect(before.items.map(\.id) == Array(15..<25))
        #expect(before.previousCursor == .before(150))
        #expect(try await loader.loadPage(at: .before(0)).previousCursor == nil)
    }

    @Test func aWindowedPaginatorWalksTheTableBothWays() async throws {
        let loader = Table().loader(limit: 5)
        let paginator = Paginator(dataSource: ListDataSource<TestRow>(), loader: loader, prefetchDistance: 1, maxLoadedRows: 12, retryPolicy: .none, clock: ManualClock())
        func quiet() async {
            await waitUntil("the paginator is quiet") { paginator._isQuiet }
            await paginator.dataSource.flush()
        }
        paginator.jump(to: .after(120))
        await quiet()
        #expect(await paginator.dataSource.flush().map(\.id) == Array(13..<18))
        for _ in 0..<10 {
            paginator.itemDidAppear(at: 0)
            await quiet()
        }
        let rows = await paginator.dataSource.flush().map(\.id)
        #expect(rows.first == 0 && rows.count <= 12)
        #expect(rows == Array(rows[0]..<rows[0] + rows.count))
        #expect(paginator.status.prepend == .exhausted)
    }
}

import ListPagination
import ListTestSupport
import Testing

@Suite struct ContinuationLoaderTests {
    @Test func eachPageCarriesTheLoaderOfTheNext() async throws {
        let calls = LockedState(0)
        @Sendable func page(from start: Int) -> ContinuationPage<TestRow> {
            calls.withLock { $0 += 1 }
            let rows = (start..<start + 3).map { TestRow(id: $0, key: $0) }
            let next: ContinuationPage<TestRow>.Next? = start + 3 < 9 ? { @Sendable in page(from: start + 3) } : nil
            return ContinuationPage(items: rows, next: next)
        }
        let loader = ContinuationLoader { page(from: 0) }
        var cursor: ContinuationLoader<TestRow>.Cursor? = nil
        var ids: [Int] = []
        var pages = 0
        repeat {
            let page = try await loader.loadPage(at: cursor)
            ids += page.items.map(\.id)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil
        #expect(ids == Array(0..<9))
        #expect(pages == 3)
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func loadingTheSameCursorAgainCallsTheSameClosure() async throws {
        let calls = LockedState<[Int]>([])
        let loader = ContinuationLoader<TestRow> {
            ContinuationPage(items: [], next: {
                calls.withLock { $0.append(2) }
                return ContinuationPage(items: [TestRow(id: 2, key: 2)], next: nil)
            })
        }
        let first = try await loader.loadPage(at: nil)
        let next = try #require(first.nextCursor)
        _ = try await loader.loadPage(at: next)
        _ = try await loader.loadPage(at: next)
        #expect(calls.withLock { $0 } == [2, 2])
    }
}

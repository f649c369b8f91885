import ListPagination
import ListTestSupport
import Testing

@Suite struct PageNumberLoaderTests {
    static func rows(_ range: Range<Int>) -> [TestRow] { range.map { TestRow(id: $0, key: $0) } }

    @Test func stopsAfterTotalPages() async throws {
        let requested = LockedState<[Int]>([])
        let loader = PageNumberLoader<TestRow>(limit: 10) { page, limit in
            requested.withLock { $0.append(page) }
            return .init(items: Self.rows((page - 1) * limit..<page * limit), totalPages: 3)
        }
        var cursor: Int? = nil
        var all: [TestRow] = []
        repeat {
            let page = try await loader.loadPage(at: cursor)
            all += page.items
            cursor = page.nextCursor
        } while cursor != nil
        #expect(requested.withLock { $0 } == [1, 2, 3])
        #expect(all == Self.rows(0..<30))
    }

    @Test func withoutATotalStopsAtAShortPage() async throws {
        let loader = PageNumberLoader<TestRow>(firstPage: 0, limit: 10) { page, limit in
            .init(items: Self.rows(page * limit..<min(page * limit + limit, 25)))
        }
        #expect(try await loader.loadPage(at: nil).nextCursor == 1)
        #expect(try await loader.loadPage(at: 1).nextCursor == 2)
        let last = try await loader.loadPage(at: 2)
        #expect(last.items.count == 5)
        #expect(last.isLast)
    }

    @Test func anEmptyPageIsTheLast() async throws {
        let loader = PageNumberLoader<TestRow>(limit: 10) { _, _ in .init(items: [], totalPages: 9) }
        #expect(try await loader.loadPage(at: 4).nextCursor == nil)
    }

    @Test func aFullLastPageWithoutATotalNeedsOneMoreRequest() async throws {
        let loader = PageNumberLoader<TestRow>(limit: 10) { page, _ in .init(items: page == 1 ? Self.rows(0..<10) : []) }
        #expect(try await loader.loadPage(at: nil).nextCursor == 2)
        #expect(try await loader.loadPage(at: 2).nextCursor == nil)
    }

    @Test func thePageBeforeIsTheNumberBeforeDownToTheFirstPage() async throws {
        let loader = PageNumberLoader<TestRow>(firstPage: 1, limit: 10) { page, limit in
            .init(items: Self.rows((page - 1) * limit..<page * limit), totalPages: 5)
        }
        #expect(try await loader.loadPage(at: nil).previousCursor == nil)
        #expect(try await loader.loadPage(at: 1).previousCursor == nil)
        #expect(try await loader.loadPage(at: 4).previousCursor == 3)
    }
}

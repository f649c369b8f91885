import ListPagination
import ListTestSupport
import Testing

@Suite struct OffsetLoaderTests {
    static let rows = (0..<25).map { TestRow(id: $0, key: $0) }

    @Test func stopsWhenTheTotalIsReached() async throws {
        let loader = OffsetLoader<TestRow>(limit: 10) { offset, limit in
            .init(items: Array(Self.rows[offset..<min(offset + limit, 20)]), totalItems: 20)
        }
        #expect(try await loader.loadPage(at: nil).nextCursor == 10)
        let second = try await loader.loadPage(at: 10)
        #expect(second.items.map(\.id) == Array(10..<20))
        #expect(second.isLast)
    }

    @Test func withoutATotalStopsAtAShortPage() async throws {
        let loader = OffsetLoader<TestRow>(limit: 10) { offset, limit in
            .init(items: Array(Self.rows[offset..<min(offset + limit, Self.rows.count)]))
        }
        #expect(try await loader.loadPage(at: 10).nextCursor == 20)
        #expect(try await loader.loadPage(at: 20).nextCursor == nil)
    }

    @Test func theNextOffsetCountsTheRowsReturned() async throws {
        // A server may return fewer rows than asked and still have more.
        let loader = OffsetLoader<TestRow>(limit: 10) { offset, _ in
            .init(items: Array(Self.rows[offset..<min(offset + 4, 25)]), totalItems: 25)
        }
        #expect(try await loader.loadPage(at: 8).nextCursor == 12)
    }

    @Test func thePageBeforeStartsALimitEarlierButNotBeforeZero() async throws {
        let loader = OffsetLoader<TestRow>(limit: 10) { offset, limit in
            .init(items: Array(Self.rows[offset..<min(offset + limit, Self.rows.count)]), totalItems: Self.rows.count)
        }
        #expect(try await loader.loadPage(at: nil).previousCursor == nil)
        #expect(try await loader.loadPage(at: 15).previousCursor == 5)
        #expect(try await loader.loadPage(at: 4).previousCursor == 0)
    }
}

import ListPagination
import ListTestSupport
import Testing

@Suite struct CursorLoaderTests {
    @Test func followsCursorsUntilNil() async throws {
        let loader = CursorLoader<TestRow, String>(limit: 2) { cursor, limit in
            let start = cursor.flatMap { Int($0.dropFirst(2)) } ?? 0
            let rows = (start..<min(start + limit, 5)).map { TestRow(id: $0, key: $0) }
            return .init(items: rows, nextCursor: start + limit < 5 ? "c_\(start + limit)" : nil)
        }
        var cursors: [String?] = [nil]
        var ids: [Int] = []
        while true {
            let page = try await loader.loadPage(at: cursors.last!)
            ids += page.items.map(\.id)
            guard let next = page.nextCursor else { break }
            cursors.append(next)
        }
        #expect(cursors == [nil, "c_2", "c_4"])
        #expect(ids == [0, 1, 2, 3, 4])
    }

    @Test func anEmptyPageWithACursorIsNotTheLast() async throws {
        let loader = CursorLoader<TestRow, Int>(limit: 2) { _, _ in .init(items: [], nextCursor: 9) }
        #expect(try await loader.loadPage(at: nil).nextCursor == 9)
    }

    @Test func previousCursorsArePassedOn() async throws {
        let loader = CursorLoader<TestRow, String>(limit: 2) { cursor, _ in
            .init(items: [TestRow(id: 1, key: 1)], nextCursor: "n", previousCursor: cursor == nil ? nil : "p")
        }
        #expect(try await loader.loadPage(at: nil).previousCursor == nil)
        let page = try await loader.loadPage(at: "x")
        #expect(page.previousCursor == "p" && !page.isFirst)
    }
}

import Foundation
import LeaderboardFixtures
import Testing

@Suite struct FixtureDirectoryTests {
    static func fixtures() throws -> FixtureDirectory { try FixtureDirectory.locate() }

    @Test func locatesFromTheEnvironmentTheCurrentDirectoryOrTheSourceFile() throws {
        let found = try Self.fixtures()
        #expect(FileManager.default.fileExists(atPath: found.playersURL.path))
        // From the environment variable.
        let viaEnvironment = try FixtureDirectory.locate(environment: ["LIST_FIXTURES": found.url.path], currentDirectory: "/", filePath: "/nowhere/x.swift")
        #expect(viaEnvironment.url.standardizedFileURL.path == found.url.standardizedFileURL.path)
        // From a directory below the repository root.
        let below = found.url.deletingLastPathComponent().appendingPathComponent("Sources").path
        let viaDirectory = try FixtureDirectory.locate(environment: [:], currentDirectory: below, filePath: "/nowhere/x.swift")
        #expect(viaDirectory.url.path == found.url.path)
        // From this test's source file, with an unrelated current directory.
        let viaFile = try FixtureDirectory.locate(environment: [:], currentDirectory: "/")
        #expect(viaFile.url.path == found.url.path)
    }

    @Test func aWrongEnvironmentVariableIsAnErrorNotAFallback() {
        #expect(throws: FixtureError.directoryNotFound(searched: ["LIST_FIXTURES=/definitely/not/here"])) {
            try FixtureDirectory.locate(environment: ["LIST_FIXTURES": "/definitely/not/here"])
        }
    }

    @Test func playersAreTheDocumentedThreeThousand() throws {
        let players = try Self.fixtures().loadPlayers()
        #expect(players.count == 3_000)
        #expect(players.first?.id == "p00001")
        #expect(players.last?.id == "p03000")
        #expect(Set(players.map(\.id)).count == 3_000)
        #expect(Set(players.map(\.country)).count == 20)
        #expect(players.allSatisfy { (0...99_999).contains($0.score) })
        for name in ["Zoë Lindqvist", "王小明", "Kai 🦊", "👩‍💻 Dana", #"<b>Bold</b> & "Quoted""#] {
            #expect(players.contains { $0.name == name }, "\(name)")
        }
    }

    @Test func numberedPagesAreTheServerOrderInFifties() throws {
        let fixtures = try Self.fixtures()
        let serverOrder = try fixtures.loadPlayers().sorted(by: <)
        for number in 1...60 {
            let page = try fixtures.loadPage(number)
            #expect(page.pagination.page == number)
            #expect(page.pagination.limit == 50 && page.pagination.totalPages == 60 && page.pagination.totalItems == 3_000)
            #expect(page.data == Array(serverOrder[(number - 1) * 50..<number * 50]), "page \(number)")
        }
        #expect(throws: FixtureError.self) { try fixtures.loadPage(61) }
    }

    @Test func cursorPagesChainThroughTheServerOrder() throws {
        let fixtures = try Self.fixtures()
        let serverOrder = try fixtures.loadPlayers().sorted(by: <)
        var cursor: String? = nil
        var rows: [Player] = []
        var pages = 0
        repeat {
            let page = try fixtures.loadCursorPage(after: cursor)
            rows += page.data
            cursor = page.pagination.nextCursor
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages == 60)
        #expect(rows == serverOrder)
    }

    @Test func cursorsCannotNameFilesOutsideTheCursorFolder() throws {
        let fixtures = try Self.fixtures()
        for cursor in ["../players", "first", "", "c_/x", "c_..%2F"] {
            #expect(fixtures.cursorPageURL(after: cursor) == nil, "\(cursor)")
        }
        #expect(fixtures.cursorPageURL(after: "c_MTA3Nzg6cDAyMzEy")?.lastPathComponent == "c_MTA3Nzg6cDAyMzEy.json")
        #expect(throws: FixtureError.self) { try fixtures.loadCursorPage(after: "../players") }
    }
}

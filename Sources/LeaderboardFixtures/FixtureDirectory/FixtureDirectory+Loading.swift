import Foundation
import ListPagination

/// A page-number fixture page: `{"data":[…],"pagination":{"page":1,"limit":50,"totalPages":60,"totalItems":3000}}`.
public struct FixturePage: Hashable, Sendable, Decodable {
    /// The `pagination` object.
    public struct Pagination: Hashable, Sendable, Decodable {
        public var page: Int
        public var limit: Int
        public var totalPages: Int
        public var totalItems: Int
    }

    /// The players, server order.
    public var data: [Player]
    /// Where the page is.
    public var pagination: Pagination

    /// Reads and decodes a page-number document.
    ///
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    public static func load(from url: URL) throws(FixtureError) -> FixturePage {
        try FixtureDirectory.decode(FixturePage.self, from: url)
    }
}

/// A cursor fixture page: `{"data":[…],"pagination":{"nextCursor":"c_…"}}` (`null` on the last).
public struct FixtureCursorPage: Hashable, Sendable, Decodable {
    /// The `pagination` object.
    public struct Pagination: Hashable, Sendable, Decodable {
        public var nextCursor: String?
    }

    /// The players, server order.
    public var data: [Player]
    /// The cursor of the next page.
    public var pagination: Pagination
}

extension FixtureDirectory {
    /// Every player, in id order.
    ///
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public func loadPlayers() throws(FixtureError) -> [Player] {
        try Self.decode([Player].self, from: playersURL)
    }

    /// The page-number page `number` (from 1).
    public func loadPage(_ number: Int) throws(FixtureError) -> FixturePage {
        try FixturePage.load(from: pageURL(number))
    }

    /// The cursor page after `cursor` (the first when `nil`).
    ///
    /// - Throws: ``FixtureError/unreadable(path:reason:)`` for a cursor with no file.
    public func loadCursorPage(after cursor: String?) throws(FixtureError) -> FixtureCursorPage {
        guard let file = cursorPageURL(after: cursor) else {
            throw .unreadable(path: url.appendingPathComponent("leaderboard/cursor").path, reason: "no page for cursor \(cursor ?? "nil")")
        }
        return try Self.decode(FixtureCursorPage.self, from: file)
    }

    /// The live events, in order.
    public func loadFeed() throws(FixtureError) -> [FeedEvent] {
        try Self.decode([FeedEvent].self, from: feedURL)
    }

    /// The players after the whole feed, server order.
    public func loadFinalPlayers() throws(FixtureError) -> [Player] {
        try Self.decode([Player].self, from: feedFinalURL)
    }

    /// Reads `url` and decodes it as `type`.
    static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws(FixtureError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        do {
            return try JSONDecodingFailure.decode(type, from: data)
        } catch {
            throw .malformed(path: url.path, failure: error)
        }
    }
}

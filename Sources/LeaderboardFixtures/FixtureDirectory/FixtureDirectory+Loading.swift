import Foundation
import ListPagination

/// A page-number fixture page: `{"data":[…],"pagination":{"page":1,"limit":50,"totalPages":60,"totalItems":3000}}`.
public struct FixturePage: Hashable, Sendable, Decodable {
    /// The `pagination` object.
    public struct Pagination: Hashable, Sendable, Decodable {
        /// The page's number, from 1.
        public var page: Int
        /// The most players a page holds.
        public var limit: Int
        /// The number of pages.
        public var totalPages: Int
        /// The number of players on all pages.
        public var totalItems: Int
    }

    /// The players, server order.
    public var data: [Player]
    /// Where the page is.
    public var pagination: Pagination

    /// Reads and decodes a page-number document.
    ///
    /// - Parameter url: the document's file.
    /// - Returns: the decoded page.
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public static func load(from url: URL) throws(FixtureError) -> FixturePage {
        try FixtureDirectory.decode(FixturePage.self, from: url)
    }
}

/// A cursor fixture page: `{"data":[…],"pagination":{"nextCursor":"c_…"}}` (`null` on the last).
public struct FixtureCursorPage: Hashable, Sendable, Decodable {
    /// The `pagination` object.
    public struct Pagination: Hashable, Sendable, Decodable {
        /// The cursor of the next page; `nil` on the last page.
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
    /// - Returns: the players of `leaderboard/players.json`.
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public func loadPlayers() throws(FixtureError) -> [Player] {
        try Self.decode([Player].self, from: playersURL)
    }

    /// The page-number page `number` (from 1).
    ///
    /// - Parameter number: the page number, from 1.
    /// - Returns: the decoded page at ``pageURL(_:)``.
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public func loadPage(_ number: Int) throws(FixtureError) -> FixturePage {
        try FixturePage.load(from: pageURL(number))
    }

    /// The cursor page after `cursor` (the first when `nil`).
    ///
    /// - Parameter cursor: a page's `nextCursor`, or `nil` for the first page.
    /// - Returns: the decoded page at ``cursorPageURL(after:)``.
    /// - Throws: ``FixtureError/unreadable(path:reason:)`` for a cursor with no file;
    ///   ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public func loadCursorPage(after cursor: String?) throws(FixtureError) -> FixtureCursorPage {
        guard let file = cursorPageURL(after: cursor) else {
            throw .unreadable(path: url.appendingPathComponent("leaderboard/cursor").path, reason: "no page for cursor \(cursor ?? "nil")")
        }
        return try Self.decode(FixtureCursorPage.self, from: file)
    }

    /// The live events, in order.
    ///
    /// - Returns: the events of ``feedURL``.
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
    public func loadFeed() throws(FixtureError) -> [FeedEvent] {
        try Self.decode([FeedEvent].self, from: feedURL)
    }

    /// The players after the whole feed, server order.
    ///
    /// - Returns: the players of `leaderboard/feed-final.json`.
    /// - Throws: ``FixtureError`` naming the file and, for bad JSON, the path and position.
    /// - Complexity: O(*n*) for *n* bytes.
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

import Foundation

/// The `Fixtures` folder of the repository: leaderboard players, pages, cursor pages,
/// the live feed and malformed inputs.
///
/// ```swift
/// let fixtures = try FixtureDirectory.locate()
/// let players = try fixtures.loadPlayers()          // 3,000 players, id order
/// let first = try fixtures.loadPage(1)              // 50 players, server order
/// ```
public struct FixtureDirectory: Hashable, Sendable {
    /// The environment variable that names the `Fixtures` folder.
    public static let environmentVariable = "LIST_FIXTURES"

    /// The `Fixtures` folder.
    public let url: URL

    /// Uses `url` as the `Fixtures` folder (it is not checked).
    ///
    /// - Parameter url: the `Fixtures` folder.
    public init(url: URL) {
        self.url = url
    }

    /// Finds the `Fixtures` folder.
    ///
    /// Looks, in order, at the folder named by `LIST_FIXTURES`, then walks up from the
    /// current directory, from `filePath` (the caller's source file) and from this
    /// library's source file, for a `Fixtures/leaderboard/players.json`. If
    /// `LIST_FIXTURES` is set, it must be right: there is no fallback.
    /// - Parameters:
    ///   - environment: the environment to read `LIST_FIXTURES` from.
    ///   - currentDirectory: where to start the first walk.
    ///   - filePath: where to start the second walk; the caller's `#filePath` by default.
    /// - Returns: the first folder found that holds `leaderboard/players.json`.
    /// - Throws: ``FixtureError/directoryNotFound(searched:)`` listing every place tried.
    /// - Complexity: one file-existence check per folder tried: at most *d* + 1 per walk
    ///   for a start *d* folders deep.
    public static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        filePath: String = #filePath
    ) throws(FixtureError) -> FixtureDirectory {
        if let configured = environment[environmentVariable], !configured.isEmpty {
            let candidate = URL(fileURLWithPath: configured, isDirectory: true).standardizedFileURL
            guard holdsFixtures(candidate) else {
                throw .directoryNotFound(searched: ["\(environmentVariable)=\(candidate.path)"])
            }
            return FixtureDirectory(url: candidate)
        }
        var searched: [String] = []
        let starts = [
            URL(fileURLWithPath: currentDirectory, isDirectory: true),
            URL(fileURLWithPath: filePath).deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent(),
        ]
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent("Fixtures", isDirectory: true)
                if holdsFixtures(candidate) { return FixtureDirectory(url: candidate) }
                searched.append(candidate.path)
                let parent = folder.deletingLastPathComponent().standardizedFileURL
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        throw .directoryNotFound(searched: searched)
    }

    private static func holdsFixtures(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("leaderboard/players.json").path)
    }

    // MARK: Files

    /// `leaderboard/players.json`: every player, id order.
    ///
    /// - Complexity: O(length of ``url``).
    public var playersURL: URL { url.appendingPathComponent("leaderboard/players.json") }

    /// `leaderboard/pages/page-NNN.json`.
    ///
    /// - Parameter number: the page number, from 1.
    /// - Returns: the file of page `number`, its number padded to three digits
    ///   (`page-007.json`); the file may not exist.
    /// - Complexity: O(length of ``url``).
    public func pageURL(_ number: Int) -> URL {
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        return url.appendingPathComponent("leaderboard/pages/page-\(padded).json")
    }

    /// `leaderboard/cursor/first.json` for `nil`, else `leaderboard/cursor/<cursor>.json`.
    ///
    /// - Parameter cursor: a page's `nextCursor`, or `nil` for the first page.
    /// - Returns: the file of the page after `cursor` (it may not exist); `nil` if
    ///   `cursor` is empty, is `first`, or holds characters other than ASCII letters,
    ///   digits, `_` and `-` (so a cursor can never name a file outside the folder).
    /// - Complexity: O(length of ``url`` + length of `cursor`).
    public func cursorPageURL(after cursor: String?) -> URL? {
        guard let cursor else { return url.appendingPathComponent("leaderboard/cursor/first.json") }
        let allowed = cursor.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard allowed, !cursor.isEmpty, cursor != "first" else { return nil }
        return url.appendingPathComponent("leaderboard/cursor/\(cursor).json")
    }

    /// `leaderboard/feed.json`: the live events.
    ///
    /// - Complexity: O(length of ``url``).
    public var feedURL: URL { url.appendingPathComponent("leaderboard/feed.json") }

    /// `leaderboard/feed-final.json`: the players after the whole feed, server order.
    ///
    /// - Complexity: O(length of ``url``).
    public var feedFinalURL: URL { url.appendingPathComponent("leaderboard/feed-final.json") }

    /// The `.json` files in `malformed/`, by name.
    ///
    /// - Returns: the URLs of the `.json` files in `malformed/`, sorted by file name.
    /// - Throws: ``FixtureError/unreadable(path:reason:)`` if the folder cannot be listed.
    /// - Complexity: O(*f* log *f*) for *f* entries in the folder.
    public func malformedFiles() throws(FixtureError) -> [URL] {
        let folder = url.appendingPathComponent("malformed", isDirectory: true)
        do {
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw .unreadable(path: folder.path, reason: error.localizedDescription)
        }
    }
}

import ListPagination

/// Why fixture data could not be found or read, and where.
public enum FixtureError: Error, Sendable, Hashable {
    /// No `Fixtures/leaderboard/players.json` in any of the places searched.
    case directoryNotFound(searched: [String])
    /// The file exists but could not be read (or does not exist).
    case unreadable(path: String, reason: String)
    /// The file is not the JSON it should be; the failure gives the path in the document
    /// (`data[3].score`) and the line, column and byte.
    case malformed(path: String, failure: JSONDecodingFailure)
    /// The file is valid JSON but does not make sense, such as a feed event for an
    /// unknown player; `position` says where.
    case inconsistent(path: String, position: String, reason: String)

    /// The file the error is about, if any.
    ///
    /// - Complexity: O(1).
    public var path: String? {
        switch self {
        case .directoryNotFound: nil
        case .unreadable(let path, _), .malformed(let path, _), .inconsistent(let path, _, _): path
        }
    }
}

extension FixtureError: CustomStringConvertible {
    /// The error on one line, starting with the file it is about, such as
    /// `…/leaderboard/pages/page-007.json: data[3].score, line 6, column 11 (byte 64): …`.
    ///
    /// - Complexity: O(length of the text).
    public var description: String {
        switch self {
        case .directoryNotFound(let searched):
            "Fixtures/leaderboard/players.json not found; set LIST_FIXTURES to the Fixtures folder. Searched: \(searched.joined(separator: ", "))"
        case .unreadable(let path, let reason):
            "\(path): cannot read: \(reason)"
        case .malformed(let path, let failure):
            "\(path): \(failure)"
        case .inconsistent(let path, let position, let reason):
            "\(path), \(position): \(reason)"
        }
    }
}

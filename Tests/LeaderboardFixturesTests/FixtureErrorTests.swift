import Foundation
import LeaderboardFixtures
import ListPagination
import Testing

/// Every file in `Fixtures/malformed/` gives a typed error naming the file, the path in
/// the document and the position (as `Fixtures/malformed/README.md` describes them).
@Suite struct FixtureErrorTests {
    struct Expected {
        var path: String
        var byteOffset: Int
        var line: Int
        var reason: String
    }

    static let expected: [String: Expected] = [
        "truncated.json": Expected(path: "data[2].name", byteOffset: 176, line: 4, reason: "end of data inside a string"),
        "wrong-type.json": Expected(path: "data[3].score", byteOffset: -1, line: 5, reason: "expected Int"),
        "fractional-score.json": Expected(path: "data[2].score", byteOffset: 201, line: 4, reason: "99949.5 does not fit"),
        "missing-pagination.json": Expected(path: "pagination", byteOffset: 0, line: 1, reason: "missing key \"pagination\""),
        "not-an-object.json": Expected(path: "", byteOffset: 0, line: 1, reason: "Dictionary"),
        "empty.json": Expected(path: "", byteOffset: 0, line: 1, reason: "end of data"),
        "bad-utf8.json": Expected(path: "data[1].name", byteOffset: 106, line: 3, reason: "invalid UTF-8 sequence 0xC3 0x28"),
    ]

    @Test func everyMalformedFileHasAnExpectation() throws {
        let files = try FixtureDirectory.locate().malformedFiles().map(\.lastPathComponent)
        #expect(Set(files) == Set(Self.expected.keys))
    }

    @Test(arguments: expected.keys.sorted())
    func malformedFileGivesPathAndPosition(name: String) throws {
        let fixtures = try FixtureDirectory.locate()
        let url = fixtures.url.appendingPathComponent("malformed/\(name)")
        let expected = try #require(Self.expected[name])
        do {
            _ = try FixturePage.load(from: url)
            Issue.record("\(name) must not decode")
        } catch {
            guard case .malformed(let path, let failure) = error else {
                Issue.record("expected .malformed, got \(error)")
                return
            }
            #expect(path == url.path)
            #expect(failure.path == expected.path)
            if expected.byteOffset >= 0 { #expect(failure.byteOffset == expected.byteOffset) }
            #expect(failure.line == expected.line)
            #expect(failure.reason.contains(expected.reason), "\(failure.reason)")
            #expect(error.description.hasPrefix(url.path))
            #expect(error.path == url.path)
        }
    }

    @Test func wrongTypeIsLocatedOnItsValue() throws {
        let url = try FixtureDirectory.locate().url.appendingPathComponent("malformed/wrong-type.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        do {
            _ = try FixturePage.load(from: url)
        } catch {
            guard case .malformed(_, let failure) = error, let offset = failure.byteOffset else {
                Issue.record("expected a located failure, got \(error)")
                return
            }
            #expect(String(decoding: bytes[offset..<offset + 7], as: UTF8.self) == #""99868""#)
        }
    }

    @Test func aMissingFileIsUnreadable() throws {
        let url = try FixtureDirectory.locate().url.appendingPathComponent("malformed/absent.json")
        #expect {
            try FixturePage.load(from: url)
        } throws: { error in
            guard case .unreadable(let path, _) = error as? FixtureError else { return false }
            return path == url.path
        }
    }
}

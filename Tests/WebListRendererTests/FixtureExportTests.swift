import Foundation
import ListTestSupport
import Testing
@testable import WebListRenderer

/// Writes the wire messages of random mutation runs as fixtures for the browser client's
/// node tests (`js/list-client.test.mjs` replays every `js/fixtures/*.json` and compares
/// the DOM with `expected`).
///
/// The files are committed. This test checks that they are what the current engine and
/// encoder produce; regenerate them with
/// `UPDATE_FIXTURES=1 swift test --filter FixtureExport`.
@Suite("Fixture export")
struct FixtureExportTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("js/fixtures")
    static let updating = ProcessInfo.processInfo.environment["UPDATE_FIXTURES"] == "1"

    /// The fixture text for `seed`: a snapshot, then one batch per mutation (each flushed,
    /// so the sequence is deterministic), with an extra mid-stream snapshot every
    /// `snapshotEvery` messages as a hub sends to a client it resets.
    static func fixture(seed: UInt64, mutations: Int, snapshotEvery: Int?) async -> String {
        var mutator = RandomMutator(seed: seed)
        let source = ListDataSource<TestRow>()
        let log = FrameLog()
        let renderer = WebListRenderer(format: testRowFormat, send: log.append)
        source.attach(renderer)
        await source.flush()
        var messages: [String] = log.all.map(\.json)
        for round in 0 ..< mutations {
            let before = log.all.count
            mutator.mutate(source, known: Array(source.snapshot))
            await source.flush()
            messages += log.all[before...].map(\.json)
            if let snapshotEvery, round % snapshotEvery == snapshotEvery - 1, let snapshot = renderer.snapshotFrame() {
                messages.append(snapshot.json)
            }
        }
        return text(messages: messages, rows: wireRows(source.snapshot), version: source.snapshot.version)
    }

    /// The fixture text for a renderer moved between lists: attached to a list at
    /// version 12, then to one at version 1, which then changes `mutations` times. The
    /// second list's versions are shifted on the wire (they would otherwise go back), so a
    /// client replaying the messages in order ends with the second list's rows.
    static func sourceSwitchFixture(seed: UInt64, mutations: Int) async -> String {
        let first = await listBuiltOneRowAtATime(ids: 1 ... 12)
        let second = ListDataSource([TestRow(id: 1_001, key: 5), TestRow(id: 2, key: 99)])
        let (renderer, log) = await logRenderer(movedFrom: first, to: second)
        await second.flush()
        var mutator = RandomMutator(seed: seed)
        for _ in 0 ..< mutations {
            mutator.mutate(second, known: Array(second.snapshot))
            await second.flush()
        }
        return text(messages: log.all.map(\.json), rows: wireRows(second.snapshot), version: renderer.version ?? -1)
    }

    /// A fixture: the messages, then the rows and version a client ends with.
    static func text(messages: [String], rows: [WebListRow], version: Int) -> String {
        func array(_ strings: [String]) -> String {
            var writer = _JSONWriter()
            writer.raw("[")
            for (index, string) in strings.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.string(string)
            }
            writer.raw("]")
            return writer.text
        }
        return """
        {"messages":[
        \(messages.joined(separator: ",\n"))
        ],
        "expected":{"version":\(version),
        "ids":\(array(rows.map(\.id))),
        "html":\(array(rows.map(\.html)))}}

        """
    }

    @Test(arguments: [
        (seed: UInt64(101), mutations: 40, snapshotEvery: Int?.none),
        (seed: UInt64(202), mutations: 60, snapshotEvery: Int?.none),
        (seed: UInt64(303), mutations: 60, snapshotEvery: Int?.some(15)),
    ])
    func committedFixtureMatches(seed: UInt64, mutations: Int, snapshotEvery: Int?) async throws {
        let text = await Self.fixture(seed: seed, mutations: mutations, snapshotEvery: snapshotEvery)
        try Self.check(text, named: "swift-random-\(seed).json")
    }

    @Test func committedSourceSwitchFixtureMatches() async throws {
        let text = await Self.sourceSwitchFixture(seed: 404, mutations: 30)
        try Self.check(text, named: "swift-source-switch.json")
    }

    /// Checks that replaying `text` gives its expected rows, and that the committed file
    /// `name` holds it (or writes it, when updating).
    static func check(_ text: String, named name: String) throws {
        let url = directory.appendingPathComponent(name)

        // The fixture must be valid, and replaying it must give the expected rows.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let messages = try #require(object["messages"] as? [Any])
        let expected = try #require(object["expected"] as? [String: Any])
        var replica = WebListReplica()
        for message in messages {
            let json = try #require(String(data: try JSONSerialization.data(withJSONObject: message), encoding: .utf8))
            #expect(replica.apply(json: json) == .applied, "\(name)")
        }
        #expect(replica.ids == expected["ids"] as? [String], "\(name)")
        #expect(replica.rows.map(\.html) == expected["html"] as? [String], "\(name)")
        #expect(replica.version == expected["version"] as? Int, "\(name)")

        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } else {
            let committed = try? String(contentsOf: url, encoding: .utf8)
            #expect(committed == text, "\(url.lastPathComponent) is stale: run UPDATE_FIXTURES=1 swift test --filter FixtureExport")
        }
    }
}

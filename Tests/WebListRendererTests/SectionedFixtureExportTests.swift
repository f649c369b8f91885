import Foundation
import ListTestSupport
import Testing
@testable import WebListRenderer

/// Writes the wire messages of random sectioned mutation runs as one fixture for the
/// browser client's node tests (`js/list-client-sections.test.mjs` replays every
/// sequence of `js/sectioned-fixtures/swift-sectioned-random.json`, in order and with
/// batches lost, and compares the sectioned DOM with `expected`).
///
/// The file is committed. This test checks that it is what the current engine and
/// encoder produce; regenerate it with
/// `UPDATE_FIXTURES=1 swift test --filter FixtureExport`.
@Suite("Sectioned fixture export")
struct SectionedFixtureExportTests {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("js/sectioned-fixtures/swift-sectioned-random.json")

    /// A compact row format, so that 200 sequences stay small; titles and ids keep
    /// characters that must stay text.
    static let format = SectionedWebListFormat<Int, TestRow>(
        rows: WebListFormat<TestRow>(id: { "r\($0)" }) { row in
            "<i>\(row.key)</i> \(trickyLabels[row.payload % trickyLabels.count])"
        },
        key: { "s\($0)" },
        title: { "Tier \($0) <b>\"&\"</b>" }
    )

    /// The number of random sequences in the fixture.
    static let sequences = 200

    /// One sequence as JSON: a snapshot, then one sectioned batch per mutation (each
    /// flushed, so the sequence is deterministic), with an extra snapshot after every
    /// fourth mutation, as a hub sends to a client it resets; then the final snapshot
    /// (for a client that lost a batch after the last one) and the sections a client
    /// ends with.
    static func sequence(seed: UInt64) async -> (json: String, replayed: Bool) {
        var mutator = RandomMutator(seed: seed)
        let list = sectionedTestList()
        let log = FrameLog()
        let renderer = SectionedWebListRenderer(format: format, send: log.append)
        list.attach(renderer)
        _ = await list.flush()
        var messages: [String] = log.all.map(\.json)
        for round in 0 ..< 12 {
            let before = log.all.count
            mutator.mutate(list.rows, known: Array(list.rows.snapshot))
            _ = await list.flush()
            messages += log.all[before...].map(\.json)
            if round % 4 == 3, let snapshot = renderer.snapshotFrame() { messages.append(snapshot.json) }
        }
        let final = await list.flush()
        let sections = wireSections(final, format: format)

        // Replaying the messages in Swift gives the expected sections.
        var replica = WebListReplica()
        let replayed = messages.allSatisfy { replica.apply(json: $0) == .applied } && replica.sections == sections

        var writer = _JSONWriter()
        writer.raw(#"{"seed":"#)
        writer.integer(Int(seed))
        writer.raw(#","messages":["#)
        writer.raw("\n")
        var text = writer.text + messages.joined(separator: ",\n") + "\n],\n"
        var tail = _JSONWriter()
        tail.raw(#""snapshot":"#)
        text += tail.text + (renderer.snapshotFrame()?.json ?? "null") + ",\n"
        var expected = _JSONWriter()
        expected.raw(#""expected":{"version":"#)
        expected.integer(final.version)
        expected.raw(#","sections":["#)
        for (index, section) in sections.enumerated() {
            if index > 0 { expected.raw(",") }
            expected.raw(#"{"key":"#)
            expected.string(section.key)
            expected.raw(#","title":"#)
            expected.string(section.title)
            expected.raw(#","ids":["#)
            for (index, row) in section.items.enumerated() {
                if index > 0 { expected.raw(",") }
                expected.string(row.id)
            }
            expected.raw(#"],"html":["#)
            for (index, row) in section.items.enumerated() {
                if index > 0 { expected.raw(",") }
                expected.string(row.html)
            }
            expected.raw("]}")
        }
        expected.raw("]}}")
        return (text + expected.text, replayed)
    }

    @Test func committedSectionedFixtureMatches() async throws {
        var parts: [String] = []
        for seed in 1 ... Self.sequences {
            let (json, replayed) = await Self.sequence(seed: UInt64(seed))
            #expect(replayed, "seed \(seed): a replica replaying the messages does not end with the list's sections")
            parts.append(json)
        }
        let text = "{\"sequences\":[\n" + parts.joined(separator: ",\n") + "\n]}\n"
        // The fixture is valid JSON with every sequence.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["sequences"] as? [Any])?.count == Self.sequences)
        if FixtureExportTests.updating {
            try FileManager.default.createDirectory(at: Self.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: Self.url)
        } else {
            let committed = try? String(contentsOf: Self.url, encoding: .utf8)
            #expect(committed == text, "\(Self.url.lastPathComponent) is stale: run UPDATE_FIXTURES=1 swift test --filter FixtureExport")
        }
    }
}

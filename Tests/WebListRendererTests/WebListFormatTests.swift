import Foundation
import ListTestSupport
import Testing
import WebListRenderer

/// A leaderboard row shaped like the demo's.
struct Player: Hashable, DataSourceComparable {
    let id: String
    var name: String
    var score: Int
    var country: String
    static func < (lhs: Player, rhs: Player) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.id < rhs.id
    }
}

let playerFormat = WebListFormat<Player> { player in
    "<span class=\"name\">\(player.name)</span><span class=\"country\">\(player.country)</span><span class=\"score\">\(player.score)</span>"
}

func players(_ count: Int, offset: Int = 0) -> [Player] {
    (0 ..< count).map { index in
        let number = offset + index + 1
        return Player(id: "p\(String(100_000 + number).dropFirst())", name: "Player \(number)", score: (number * 7_919) % 100_000, country: "SE")
    }
}

/// A row keyed by a `UUID`, as rows from a database often are.
struct Note: Hashable, DataSourceComparable {
    let id: UUID
    var text: String
    static func < (lhs: Note, rhs: Note) -> Bool {
        (lhs.text, lhs.id.uuidString) < (rhs.text, rhs.id.uuidString)
    }
}

/// An id that is `CustomStringConvertible` but not `LosslessStringConvertible`.
struct TicketNumber: Hashable, Sendable, CustomStringConvertible {
    var queue: String
    var number: Int
    var description: String { "\(queue)-\(number)" }
}

/// A row keyed by a `TicketNumber`.
struct Ticket: Hashable, DataSourceComparable {
    let id: TicketNumber
    static func < (lhs: Ticket, rhs: Ticket) -> Bool { lhs.id.description < rhs.id.description }
}

@Suite("WebListFormat")
struct WebListFormatTests {
    @Test func rowsUseTheIDAndEscapedHTML() {
        let row = playerFormat.row(Player(id: "p1", name: #"O'Connor <script>alert("x")</script>"#, score: 5, country: "IE"))
        #expect(row.id == "p1")
        #expect(row.html == #"<span class="name">O&#39;Connor &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</span><span class="country">IE</span><span class="score">5</span>"#)
        let items = WebListFormat<DataSourceItem<String>> { .text($0.value) }
        #expect(items.row(DataSourceItem(uid: "a&b", value: "<i>", index: 0)) == WebListRow(id: "a&b", html: "&lt;i&gt;"))
    }

    @Test func uuidIDsNeedNoIDClosureAndAreTheirUUIDString() async throws {
        let format = WebListFormat<Note> { note in "\(note.text)" }
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(format.row(Note(id: id, text: "<b>")) == WebListRow(id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", html: "&lt;b&gt;"))
        let other = UUID()
        #expect(format.row(Note(id: other, text: "")).id == other.uuidString)

        let source = ListDataSource([Note(id: id, text: "a"), Note(id: other, text: "b")])
        guard case .snapshot(_, let rows) = format.snapshotMessage(for: await source.flush()) else {
            Issue.record("not a snapshot message")
            return
        }
        #expect(rows.map(\.id) == [id.uuidString, other.uuidString])
    }

    @Test func describableAndLosslessIDsAreTheirText() {
        let tickets = WebListFormat<Ticket> { ticket in "\(ticket.id.number)" }
        #expect(tickets.row(Ticket(id: TicketNumber(queue: "desk", number: 7))).id == "desk-7")
        let rows = WebListFormat<TestRow> { row in "\(row.key)" }
        #expect(rows.row(TestRow(id: 42, key: 1)).id == "42")
    }

    @Test func batchMessagesCarryTheStepsAndVersions() async throws {
        let source = ListDataSource([TestRow(id: 1, key: 1), TestRow(id: 2, key: 2), TestRow(id: 3, key: 3)])
        let recorder = BatchRecorder<TestRow>()
        source.attach(recorder)
        // One call, so one batch: #2 goes, #1 is re-keyed to the end.
        source.replaceAll(with: [TestRow(id: 1, key: 9, payload: 1), TestRow(id: 3, key: 3)])
        await source.flush()
        let batch = try #require(recorder.batches.last)
        let message = testRowFormat.message(for: batch)
        #expect(message == .batch(from: 1, to: 2, steps: [
            .remove(at: 1),
            .move(from: 1, to: 0),  // one move either way; the full walk keeps #1 and moves #3
            .reload(testRowFormat.row(TestRow(id: 1, key: 9, payload: 1)), at: 1),
        ]))
    }

    /// The message for one changed row must not grow with the list.
    @Test func aOneRowUpdateIsSmallWhateverTheListSize() async throws {
        var sizes: [Int: Int] = [:]
        for count in [1_000, 100_000] {
            let source = ListDataSource(players(count))
            let recorder = BatchRecorder<Player>()
            source.attach(recorder)
            var player = source.snapshot[count / 2]
            player.score = 100_001   // climbs to the top: one move and one reload
            source.add(player)
            await source.flush()
            let batch = try #require(recorder.batches.last)
            let frame = WebListFrame(playerFormat.message(for: batch))
            #expect(batch.steps.count == 2)
            sizes[count] = frame.byteCount
            print("one-row update in a \(count)-row list: \(frame.byteCount) bytes: \(frame.json)")
        }
        let small = try #require(sizes[1_000]), large = try #require(sizes[100_000])
        #expect(small < 300)
        #expect(large - small <= 4, "only the digits of the offset may differ")
    }

    @Test func aThousandRowPageMessage() async throws {
        let source = ListDataSource(players(1_000))
        let recorder = BatchRecorder<Player>()
        source.attach(recorder)
        source.add(players(1_000, offset: 1_000))   // the next page arrives
        await source.flush()
        let batch = try #require(recorder.batches.last)
        let page = WebListFrame(playerFormat.message(for: batch))
        let snapshot = WebListFrame(playerFormat.snapshotMessage(for: batch.old))
        print("1,000-row page as a batch: \(page.byteCount) bytes; a 1,000-row snapshot: \(snapshot.byteCount) bytes")
        #expect(batch.insertions.count == 1_000)
        #expect(page.byteCount < 200 * 1_000)
        #expect(snapshot.byteCount < 200 * 1_000)
    }

    @Test func equalStringIDsInAnySpellingHaveOneWireID() {
        let format = WebListFormat<DataSourceItem<String>> { item in "\(item.value)" }
        let nfc = DataSourceItem(uid: "\u{E9}t\u{E9}", value: "", index: 0), nfd = DataSourceItem(uid: "e\u{301}te\u{301}", value: "", index: 0)
        #expect(Array(format.row(nfd).id.unicodeScalars) == Array(nfc.uid.unicodeScalars))
        #expect(Array(format.row(nfc).id.unicodeScalars) == Array(nfc.uid.unicodeScalars))
        #expect(format.row(DataSourceItem(uid: "plain-ascii", value: "", index: 0)).id == "plain-ascii")
        #expect(format.row(DataSourceItem(uid: "\u{212B}", value: "", index: 0)).id.unicodeScalars.map(\.value) == [0xC5])  // Å (angstrom) → Å
    }

    /// Spellings that `==` calls equal under the Unicode version of the standard library:
    /// compositions and mark orders from recent versions that older normalization tables
    /// do not know.
    @Test(arguments: [
        ("\u{113C5}", "\u{113C2}\u{113C2}"),  // Tulu-Tigalari vowel sign, composed (Unicode 16)
        ("\u{16121}", "\u{1611E}\u{1611E}"),  // Gurung Khema vowel sign, composed (Unicode 16)
        ("a\u{0301}\u{1E5EF}", "a\u{1E5EF}\u{0301}"),  // marks of different classes, either order
    ])
    func spellingsEqualUnderTheStandardLibrarysUnicodeHaveOneWireID(first: String, second: String) {
        #expect(first == second)
        let format = WebListFormat<DataSourceItem<String>> { item in "\(item.value)" }
        let firstID = format.row(DataSourceItem(uid: first, value: "", index: 0)).id
        let secondID = format.row(DataSourceItem(uid: second, value: "", index: 0)).id
        #expect(Array(firstID.utf8) == Array(secondID.utf8))
    }

    /// Every batch of a list whose ids change spelling, as a client applies it.
    @Test(arguments: [
        // Updated, then set back to its content under the other spelling, in one call.
        [[("\u{E9}", "v1", 1.0), ("z", "Z", 2.0)], [("e\u{301}", "v2", 1.0), ("e\u{301}", "v1", 1.0), ("y", "Y", 3.0)], [("e\u{301}", "v3", 1.0)]],
        // Re-keyed under the other spelling, then updated under the first.
        [[("\u{E9}", "v1", 1.0), ("z", "Z", 2.0)], [("e\u{301}", "v2", 4.0)], [("\u{E9}", "v3", 4.0)]],
        // Updated under a spelling from a recent Unicode version.
        [[("\u{113C5}", "v1", 1.0)], [("\u{113C2}\u{113C2}", "v2", 1.0)]],
    ])
    func aClientFollowsAListWhoseIDsChangeSpelling(calls: [[(String, String, Double)]]) async {
        let list = ListDataSource<DataSourceItem<String>>()
        let format = WebListFormat<DataSourceItem<String>> { item in "\(item.value)" }
        let recorder = BatchRecorder<DataSourceItem<String>>()
        list.attach(recorder)
        for call in calls {
            list.add(call.map { DataSourceItem(uid: $0.0, value: $0.1, index: $0.2) })
            await list.flush()
        }
        var replica = WebListReplica()
        let batches = recorder.batches
        #expect(replica.apply(format.snapshotMessage(for: batches[0].new)) == .applied)  // the attach batch
        for batch in batches.dropFirst() {
            let json = WebListFrame(format.message(for: batch)).json
            #expect(replica.apply(json: json) == .applied, "\(json)")
        }
        let final = format.snapshotMessage(for: list.snapshot)
        guard case .snapshot(_, let rows) = final else { return }
        #expect(replica.rows.map { Array($0.id.unicodeScalars) } == rows.map { Array($0.id.unicodeScalars) })
        #expect(replica.rows.map(\.html) == rows.map(\.html))
    }
}

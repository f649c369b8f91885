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

@Suite("WebListFormat")
struct WebListFormatTests {
    @Test func rowsUseTheIDAndEscapedHTML() {
        let row = playerFormat.row(Player(id: "p1", name: #"O'Connor <script>alert("x")</script>"#, score: 5, country: "IE"))
        #expect(row.id == "p1")
        #expect(row.html == #"<span class="name">O&#39;Connor &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</span><span class="country">IE</span><span class="score">5</span>"#)
        let items = WebListFormat<DataSourceItem<String>> { .text($0.value) }
        #expect(items.row(DataSourceItem(uid: "a&b", value: "<i>", index: 0)) == WebListRow(id: "a&b", html: "&lt;i&gt;"))
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

    @Test func aReloadedRowWhoseWireIDIsSpelledDifferentlyIsSentAsRemoveAndInsert() async {
        let list = ListDataSource<DataSourceItem<String>>()
        let format = WebListFormat<DataSourceItem<String>> { item in "\(item.value)" }
        let recorder = BatchRecorder<DataSourceItem<String>>()
        list.attach(recorder)
        list.add([DataSourceItem(uid: "\u{E9}", value: "NFC", index: 1), DataSourceItem(uid: "z", value: "Z", index: 2)])
        await list.flush()
        list.add(DataSourceItem(uid: "e\u{301}", value: "NFD", index: 3))  // the same id to Swift: an update
        list.add(DataSourceItem(uid: "z", value: "Z2", index: 2))  // a plain reload stays one
        await list.flush()
        var replica = WebListReplica()
        let batches = recorder.batches
        #expect(replica.apply(format.snapshotMessage(for: batches[0].new)) == .applied)  // the attach batch
        for batch in batches.dropFirst() {
            #expect(replica.apply(json: WebListFrame(format.message(for: batch)).json) == .applied)
        }
        #expect(replica.rows.map { Array($0.id.unicodeScalars) } == [["z"], ["e", "\u{301}"]])
        #expect(replica.rows.map(\.html) == ["Z2", "NFD"])
        guard case .batch(_, _, let steps) = format.message(for: batches.last!) else { return }
        #expect(steps.filter { if case .reload = $0 { true } else { false } }.count == 1)
    }
}

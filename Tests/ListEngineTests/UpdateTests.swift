import Dispatch
import Foundation
import ListEngine
import ListTestSupport
import Testing

/// A message as an inbox holds it: several fields that different code edits.
private struct Message: Hashable, DataSourceComparable {
    let id: Int
    var text: String
    var isRead = false
    var isStarred = false
    var sentAt: Int
    static func < (lhs: Message, rhs: Message) -> Bool { lhs.sentAt > rhs.sentAt }
}

/// A row whose fields are counters, each bumped by its own task.
private struct Counters: Hashable, DataSourceComparable {
    let id: Int
    var fields: [Int]
    var rank: Int
    static func < (lhs: Counters, rhs: Counters) -> Bool { lhs.rank < rhs.rank }
}

/// `==` by id only, as diffable data sources teach, with the content said apart.
private struct IDOnlyMessage: Hashable, DataSourceComparable {
    let id: UUID
    var text: String
    var sentAt: Int
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.sentAt < rhs.sentAt }
    func isContentEqual(to other: Self) -> Bool { text == other.text && sentAt == other.sentAt }
}

@Suite struct UpdateTests {
    @Test("update(id:_:) runs on the latest queued state: two edits of one row made back to back both land")
    func readModifyWriteComposes() async {
        let inbox = ListDataSource<Message>([Message(id: 1, text: "hello", sentAt: 10), Message(id: 2, text: "hi", sentAt: 20)])
        inbox.update(id: 1) { $0.isRead = true }
        inbox.update(id: 1) { $0.text = "edited" }
        inbox.update(id: 99) { $0.text = "never" }  // absent: nothing
        let rows = await inbox.flush()
        #expect(rows[id: 1] == Message(id: 1, text: "edited", isRead: true, sentAt: 10))
        #expect(rows.count == 2)
    }

    @Test("the batch form changes each listed row once per listing, in one batch; a changed key moves the row")
    func batchUpdate() async {
        let inbox = ListDataSource<Message>((1...5).map { Message(id: $0, text: "m\($0)", sentAt: $0) })
        let recorder = BatchRecorder<Message>()
        inbox.attach(recorder)
        _ = await inbox.flush()
        inbox.update(ids: [1, 3, 1, 42]) { $0.sentAt += 10 }
        let rows = await inbox.flush()
        #expect(rows.map(\.id) == [1, 3, 5, 4, 2])
        #expect(rows[id: 1]?.sentAt == 21, "listed twice: changed twice")
        #expect(recorder.batches.count == 2, "the attach batch and one batch for the update")
        #expect(recorder.batches.last?.moves.count == 2)
    }

    @Test("remove(where:) sees every call made before it, not what renderers were shown")
    func removeWhere() async {
        let inbox = ListDataSource<Message>((1...6).map { Message(id: $0, text: "m\($0)", sentAt: $0) })
        inbox.update(ids: [2, 4]) { $0.isRead = true }
        inbox.add(Message(id: 7, text: "new", isRead: true, sentAt: 7))
        inbox.remove { $0.isRead }
        let rows = await inbox.flush()
        #expect(Set(rows.map(\.id)) == [1, 3, 5, 6])
    }

    @Test("isContentEqual(to:) is the content where == compares ids only: updates are not lost, equal content is a no-op")
    func contentEqualityApartFromHashable() async {
        let id = UUID()
        let list = ListDataSource<IDOnlyMessage>()
        let recorder = BatchRecorder<IDOnlyMessage>()
        list.attach(recorder)
        list.add(IDOnlyMessage(id: id, text: "draft", sentAt: 1))
        _ = await list.flush()
        list.add(IDOnlyMessage(id: id, text: "sent", sentAt: 1))
        let rows = await list.flush()
        #expect(rows.first?.text == "sent")
        #expect(recorder.batches.last?.reloads == [0])
        let version = rows.version
        list.add(IDOnlyMessage(id: id, text: "sent", sentAt: 1))
        #expect(await list.flush().version == version, "the same content again: no batch")
        // Many at once take the one-pass path: the same rule.
        let many = (0..<200).map { IDOnlyMessage(id: UUID(), text: "x", sentAt: $0 * 2) }
        list.add(many)
        _ = await list.flush()
        list.add(many.prefix(40).map { IDOnlyMessage(id: $0.id, text: "y", sentAt: $0.sentAt) })
        let after = await list.flush()
        #expect(after.filter { $0.text == "y" }.count == 40)
        #expect(recorder.batches.last?.reloads.count == 40)
    }

    @Test("a main-actor renderer attached with attach(_:) renders on the main actor and keeps the rows")
    @MainActor func mainActorRenderer() async {
        @MainActor final class Table: MainActorListRenderer {
            var rows: [Message] = []
            var renders = 0
            func render(_ batch: ChangeBatch<Message>) {
                MainActor.preconditionIsolated()
                batch.apply(to: &rows)
                renders += 1
            }
        }
        let inbox = ListDataSource<Message>([Message(id: 1, text: "a", sentAt: 1)])
        let table = Table()
        let token = inbox.attach(table)
        #expect(inbox.attach(table) == token, "attaching again returns the same token")
        inbox.add(Message(id: 2, text: "b", sentAt: 2))
        inbox.update(id: 1) { $0.isStarred = true }
        let rows = await inbox.flush()
        #expect(table.rows == Array(rows))
        // The attach batch is version 1; the two calls make one batch or two, as the diff
        // queue takes them: one render per version either way.
        #expect(rows.version == 2 || rows.version == 3)
        #expect(table.renders == rows.version, "one render for the attach batch and one per later batch")
        inbox.detach(token)
    }
}

/// Run under `swift test --sanitize=thread` in CI. Serialized: each case starts several
/// tasks of its own, and cases side by side would hold the cooperative pool that other
/// suites' tests wait on.
@Suite(.serialized) struct UpdateConcurrencyTests {
    @Test("concurrent updates of different fields of one row never lose one", arguments: 0..<16)
    func concurrentFieldUpdates(seed: UInt64) async {
        var rng = SplitMix64(seed: seed)
        let fieldCount = rng.int(in: 2..<9), updatesPerField = rng.int(in: 50..<200)
        let rowCount = rng.int(in: 1..<40)
        let list = ListDataSource<Counters>((0..<rowCount).map { Counters(id: $0, fields: Array(repeating: 0, count: fieldCount), rank: $0) })
        let slow = BatchRecorder<Counters>(delayMicroseconds: 50)
        list.attach(slow)
        let target = rng.int(in: 0..<rowCount)
        await withTaskGroup(of: Void.self) { group in
            for field in 0..<fieldCount {
                let taskSeed = seed &* 1_000 &+ UInt64(field)
                group.addTask {
                    var rng = SplitMix64(seed: taskSeed)
                    for step in 0..<updatesPerField {
                        let moves = rng.chance(0.2)
                        let rank = rng.int(in: 0..<(rowCount + 5))
                        list.update(id: target) { row in
                            row.fields[field] += 1
                            if moves { row.rank = rank }
                        }
                        if rng.chance(0.1) {  // other rows come and go meanwhile
                            let other = rowCount + rng.int(in: 0..<20)
                            if rng.chance(0.5) {
                                list.add(Counters(id: other, fields: [], rank: rng.int(in: 0..<50)))
                            } else {
                                list.remove(ids: [other])
                            }
                        }
                        if step % 32 == 0 { await Task.yield() }
                    }
                }
            }
        }
        let rows = await list.flush()
        #expect(rows[id: target]?.fields == Array(repeating: updatesPerField, count: fieldCount), "seed \(seed)")
        #expect(slow.batches.last?.version == rows.version, "seed \(seed)")
        #expect(slow.replayedRows() == Array(rows), "seed \(seed)")
    }
}

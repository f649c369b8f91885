import ListEngine
import Testing

// The README's usage example, kept compiling and checked.

private struct Message: Hashable, DataSourceComparable {
    let id: Int
    var text: String
    var isRead = false
    var sentAt: Int
    static func < (lhs: Message, rhs: Message) -> Bool { lhs.sentAt > rhs.sentAt }  // newest first
}

@MainActor private final class InboxTable: MainActorListRenderer {  // keeps the rows a table shows
    private(set) var rows: [Message] = []
    func render(_ batch: ChangeBatch<Message>) {
        batch.apply(to: &rows)      // or drive a table view with batch.steps, or the four sets
    }
}

@Suite struct ReadmeExampleTests {
    @Test("the README's usage example: the table keeps exactly the rows flush() returns")
    func usage() async {
        let inbox = ListDataSource<Message>()
        let table = InboxTable()
        inbox.attach(table)                 // an attach batch, then every batch, on the main actor
        inbox.add([Message(id: 1, text: "hi", sentAt: 1), Message(id: 2, text: "yo", sentAt: 2)])
        inbox.update(id: 1) { $0.isRead = true }     // runs on the latest state: edits never lose one
        inbox.remove(ids: [2])
        let rows = await inbox.flush()      // [1 "hi" read]; table.rows is the same
        #expect(Array(rows) == [Message(id: 1, text: "hi", isRead: true, sentAt: 1)])
        #expect(await table.rows == Array(rows))

        // Grouped by day, newest first; a SectionedListRenderer gets batches in index paths
        let days = SectionedListDataSource<Int, Message>(sectionedBy: { -$0.sentAt / 86_400 })
        days.add([Message(id: 3, text: "old", sentAt: 10), Message(id: 4, text: "new", sentAt: 90_000)])
        let grouped = await days.flush()    // sections -1: [4], 0: [3]; indexPath(of: 3) is 1.0
        #expect(grouped.sections.map(\.key) == [-1, 0])
        #expect(grouped.sections.map { $0.rows.map { grouped.rows[$0].id } } == [[4], [3]])
        #expect(grouped.indexPath(of: 3) == ListIndexPath(section: 1, item: 0))
    }
}

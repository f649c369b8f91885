import ListTestSupport
import TerminalListRenderer

/// A data source with a recorder attached, to take its batches synchronously.
struct RecordedSource {
    let source: ListDataSource<TestRow>
    let recorder = BatchRecorder<TestRow>()

    init(_ rows: [TestRow] = [], sortedBy order: @escaping @Sendable (TestRow, TestRow) -> Bool = { $0 < $1 }) {
        source = ListDataSource(rows, sortedBy: order)
        source.attach(recorder)
    }

    /// Waits for everything submitted so far and returns the batches it produced.
    func batches() async -> [ChangeBatch<TestRow>] {
        await source.flush()
        return recorder.take()
    }
}

/// Names that exercise widths and escaping, picked by row id.
let awkwardNames = [
    "Zoë Lindqvist", "王小明", "Kai 🦊", "👩‍💻 Dana", "a\u{1B}[31mred", "tab\there", "🇸🇪 flag",
    "e\u{301}clair", "a name long enough to be cut at any width", "\u{202E}evil", "김민준", "plain",
]

/// A row formatter using several styles and awkward text.
let awkwardFormatter: TerminalListRenderer<TestRow>.RowFormatter = { row, offset in
    StyledText("\(offset + 1) ", style: TextStyle(isDim: true))
        + StyledText(awkwardNames[row.id % awkwardNames.count], style: row.payload % 2 == 0 ? TextStyle(isBold: true) : TextStyle(foreground: .green))
        + StyledText(" k\(row.key)")
}

/// Counts calls, from any thread.
final class CallCounter: Sendable {
    private let count = LockedState(0)
    func increment() { count.withLock { $0 += 1 } }
    func take() -> Int { count.withLock { value in defer { value = 0 }; return value } }
}

/// An empty snapshot at version 0, to build attach batches by hand.
func emptySnapshot() -> ListSnapshot<TestRow> {
    ListDataSource<TestRow>().snapshot
}

/// The batch that draws `snapshot` from nothing.
func attachBatch(_ snapshot: ListSnapshot<TestRow>) -> ChangeBatch<TestRow> {
    ChangeBatch(old: emptySnapshot(), new: snapshot, deletions: [], insertions: Array(snapshot.indices), moves: [], reloads: [])
}

/// A sectioned data source (sections by `key / 4`) with a recorder attached, to take its
/// batches synchronously.
struct RecordedSectionedSource {
    static let tierOf: @Sendable (TestRow) -> Int = { $0.key / 4 }

    let source: SectionedListDataSource<Int, TestRow>
    let recorder = SectionedBatchRecorder<Int, TestRow>()

    init(_ rows: [TestRow] = [], sectionedBy section: @escaping @Sendable (TestRow) -> Int = Self.tierOf) {
        source = SectionedListDataSource(sectionedBy: section)
        source.add(rows)
        source.attach(recorder)
    }

    /// Waits for everything submitted so far and returns the batches it produced.
    func batches() async -> [SectionedChangeBatch<Int, TestRow>] {
        await source.flush()
        return recorder.take()
    }

    /// The batch a renderer attached now would get first: every current section and row.
    func attachBatch() async -> SectionedChangeBatch<Int, TestRow> {
        let fresh = SectionedBatchRecorder<Int, TestRow>()
        let token = source.attach(fresh)
        await source.flush()
        source.detach(token)
        let batches = fresh.take()
        precondition(batches.count == 1, "\(batches.count) attach batches")
        return batches[0]
    }
}

/// Section titles that exercise widths and escaping.
let awkwardTitle: @Sendable (Int) -> String = { key in
    key % 3 == 2 ? "王 tier\u{1B}[1m \(key)" : "Tier \(key)"
}

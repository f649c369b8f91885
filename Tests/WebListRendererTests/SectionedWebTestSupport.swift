import ListTestSupport
import Testing
import WebListRenderer

/// The section of a `TestRow` in the sectioned tests: its key in thirds, 0 … 3 for the
/// mutator's keys.
let testSectionOf: @Sendable (TestRow) -> Int = { $0.key / 3 }

/// The sectioned wire format used throughout these tests: section keys `s0`, `s1`, …,
/// and titles with characters that must stay text.
let testSectionedFormat = SectionedWebListFormat<Int, TestRow>(
    rows: testRowFormat,
    key: { "s\($0)" },
    title: { "Tier \($0) <b>&amp;</b> \"\(trickyLabels[$0 % trickyLabels.count])\"" }
)

/// A new, empty sectioned list of `TestRow`s grouped by `testSectionOf`.
func sectionedTestList() -> SectionedListDataSource<Int, TestRow> {
    SectionedListDataSource<Int, TestRow>(sectionedBy: testSectionOf)
}

/// The wire sections a client should show for `snapshot`, built section by section
/// through the snapshot's index paths (not through the format's snapshot message).
func wireSections(_ snapshot: SectionedSnapshot<Int, TestRow>, format: SectionedWebListFormat<Int, TestRow> = testSectionedFormat) -> [WebListSection] {
    snapshot.sections.indices.map { index in
        let section = snapshot.sections[index]
        let rows = (0 ..< section.count).map { format.rows.row(snapshot[ListIndexPath(section: index, item: $0)]) }
        return WebListSection(key: format.sectionKey(section.key), title: format.sectionTitle(section.key), items: rows)
    }
}

/// A new replica that applied `frames` in order; each frame is expected to apply.
func replayedSectioned(_ frames: [WebListFrame], sourceLocation: SourceLocation = #_sourceLocation) -> WebListReplica {
    var replica = WebListReplica()
    for frame in frames {
        #expect(replica.apply(json: frame.json) == .applied, "\(frame.json)", sourceLocation: sourceLocation)
    }
    return replica
}

import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

/// Directed cases of sectioned lists in the terminal: headers and counts, the pinned
/// header, anchoring and selection across batches, the header toggle, and a flat list
/// drawn as before.
@Suite(.cpuBound) struct SectionedTerminalListRendererTests {
    /// Rows with keys 0, 1, 2, … and ids equal to their keys: `count` rows, four to a
    /// section (sections by `key / 4`).
    private func rows(_ count: Int, from first: Int = 0) -> [TestRow] {
        (first..<(first + count)).map { TestRow(id: $0, key: $0) }
    }

    private let title: @Sendable (Int) -> String = { "Tier \($0)" }

    /// A renderer of `rows` list lines (no column header) showing `source`.
    private func renderer(_ source: RecordedSectionedSource, lines: Int, columns: Int = 30, output: OutputBuffer = OutputBuffer()) async -> TerminalListRenderer<TestRow> {
        let renderer = TerminalListRenderer<TestRow>(size: TerminalSize(rows: lines + 1, columns: columns), mode: .ansi(colors: true), output: output) { "row \($0.id)" }
        for batch in await source.batches() { renderer.render(batch, title: title) }
        return renderer
    }

    /// The list lines of the frame, without the status line.
    private func listText(_ renderer: TerminalListRenderer<TestRow>) -> [String] {
        Array(renderer.frameText().dropLast())
    }

    @Test("each section has a header with its title and row count")
    func headersShowTitlesAndCounts() async {
        let source = RecordedSectionedSource(rows(6) + [TestRow(id: 100, key: 17)])
        let renderer = await renderer(source, lines: 12)
        #expect(listText(renderer) == [
            "Tier 0 · 4", "row 0", "row 1", "row 2", "row 3", "Tier 1 · 2", "row 4", "row 5", "Tier 4 · 1", "row 100", "", "",
        ])
        #expect(renderer.viewport.visibleRows == 0..<7)
        let frame = renderer._state.withLock { $0._buildFrame(formatRow: { item, _ in StyledText("row \(item.id)") }) }
        #expect(frame[0][0].style == TextStyle(isBold: true, isUnderlined: true))
        #expect(frame[0].last?.style == TextStyle(isBold: true, isUnderlined: true))
        // Counts follow the rows.
        source.source.add(TestRow(id: 101, key: 18))
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(listText(renderer)[8] == "Tier 4 · 2")
    }

    @Test("the header of the first visible row's section stays on the first line while its rows scroll by")
    func theCurrentSectionsHeaderIsPinned() async {
        let source = RecordedSectionedSource(rows(12))
        let renderer = await renderer(source, lines: 5)
        renderer.scroll(toTop: 1)
        #expect(listText(renderer) == ["Tier 0 · 4", "row 1", "row 2", "row 3", "Tier 1 · 4"])
        renderer.scroll(toTop: 3)
        #expect(listText(renderer) == ["Tier 0 · 4", "row 3", "Tier 1 · 4", "row 4", "row 5"])
        renderer.scroll(toTop: 4)
        #expect(listText(renderer) == ["Tier 1 · 4", "row 4", "row 5", "row 6", "row 7"])
        // Moving the selection down past the bottom scrolls; the header of the new first row's section is pinned.
        renderer.selectFirst()
        for _ in 0..<6 { renderer.moveSelection(by: 1) }
        #expect(renderer.viewport.selection == 6)
        #expect(listText(renderer) == ["Tier 1 · 4", "row 4", "row 5", "row 6", "row 7"])
        // The end: the last rows fill the viewport under their header.
        renderer.selectLast()
        #expect(listText(renderer) == ["Tier 2 · 4", "row 8", "row 9", "row 10", "row 11"])
        // A page down from the top moves by the rows in view but one.
        renderer.selectFirst()
        renderer.pageDown()
        #expect(renderer.viewport.top == 3)
        #expect(renderer.viewport.selection == 3)
        #expect(listText(renderer) == ["Tier 0 · 4", "row 3", "Tier 1 · 4", "row 4", "row 5"])
    }

    @Test("rows and sections inserted and removed above the viewport leave the visible lines where they are")
    func anchoringAcrossSectionsAbove() async {
        let source = RecordedSectionedSource(rows(24, from: 20))  // sections 5 … 10
        let renderer = await renderer(source, lines: 6)
        renderer.scroll(toTop: 14)  // row 34, section 8
        renderer.select(id: 35)
        let before = listText(renderer)
        #expect(before == ["Tier 8 · 4", "row 34", "row 35", "Tier 9 · 4", "row 36", "row 37"])
        // A new section above (keys 0 and 1), rows added to one above, a section above removed.
        source.source.add([TestRow(id: 0, key: 0), TestRow(id: 1, key: 1), TestRow(id: 200, key: 25)])
        source.source.remove(ids: [28, 29, 30, 31])  // section 7
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(listText(renderer) == before)
        #expect(renderer.viewport.top == 13)
        #expect(renderer.viewport.selectedID == 35)
        // The first visible row leaves for a section above: the next row keeps its line,
        // and the row above takes the line that was left.
        source.source.add(TestRow(id: 34, key: 2))
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(listText(renderer) == ["Tier 8 · 3", "row 33", "row 35", "Tier 9 · 4", "row 36", "row 37"])
        #expect(renderer.viewport.selectedID == 35)
    }

    @Test("the selection follows its row into another section, and goes to the next row when it is removed")
    func selectionFollowsARowAcrossSections() async {
        let source = RecordedSectionedSource(rows(12))
        let renderer = await renderer(source, lines: 6)
        renderer.select(id: 2)
        source.source.add(TestRow(id: 2, key: 9))  // section 0 → 2
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(renderer.viewport.selectedID == 2)
        #expect(renderer.viewport.selection == 9)
        #expect(renderer.viewport.top == 0)
        #expect(listText(renderer) == ["Tier 0 · 3", "row 0", "row 1", "row 3", "Tier 1 · 4", "row 4"])
        // The removed selected row's place goes to the next row.
        source.source.remove(ids: [2])
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(renderer.viewport.selectedID == 10)
    }

    @Test("hiding the headers keeps the first visible row and the selection; showing them keeps the selection in view")
    func toggledHeadersKeepThePosition() async {
        let source = RecordedSectionedSource(rows(40))
        let renderer = await renderer(source, lines: 6)
        renderer.scroll(toTop: 10)
        renderer.select(id: 14)
        #expect(listText(renderer) == ["Tier 2 · 4", "row 11", "Tier 3 · 4", "row 12", "row 13", "row 14"])
        renderer.showsSectionHeaders = false
        #expect(renderer.viewport.top == 11)
        #expect(listText(renderer) == ["row 11", "row 12", "row 13", "row 14", "row 15", "row 16"])
        #expect(renderer.viewport.selectedID == 14)
        renderer.select(id: 15)
        renderer.showsSectionHeaders = true
        #expect(renderer.viewport.selectedID == 15)
        #expect(listText(renderer) == ["Tier 3 · 4", "row 12", "row 13", "row 14", "row 15", "Tier 4 · 4"])
    }

    @Test("with the headers hidden, a sectioned list writes the bytes a flat renderer of its rows writes")
    func hiddenHeadersDrawTheFlatList() async {
        let source = RecordedSectionedSource(rows(30))
        let flatRecorder = BatchRecorder<TestRow>()
        source.source.rows.attach(flatRecorder)
        let sectionedOutput = OutputBuffer(), flatOutput = OutputBuffer()
        let sectioned = TerminalListRenderer<TestRow>(size: TerminalSize(rows: 8, columns: 20), mode: .ansi(colors: true), output: sectionedOutput) { "row \($0.id)" }
        let flat = TerminalListRenderer<TestRow>(size: TerminalSize(rows: 8, columns: 20), mode: .ansi(colors: true), output: flatOutput) { "row \($0.id)" }
        sectioned.showsSectionHeaders = false
        // Both at the same version first, whichever batches brought them there.
        for batch in await source.batches() { sectioned.render(batch, title: title) }
        for batch in flatRecorder.take() { flat.render(batch) }
        #expect(sectioned.viewport.snapshot?.version == flat.viewport.snapshot?.version)
        _ = sectionedOutput.take()
        _ = flatOutput.take()
        for round in 0..<5 {
            source.source.add(TestRow(id: 100 + round, key: round * 7))
            source.source.remove(ids: [round * 3])
            for batch in await source.batches() { sectioned.render(batch, title: title) }
            await source.source.flush()
            for batch in flatRecorder.take() { flat.render(batch) }
            for renderer in [sectioned, flat] {
                renderer.pageDown()
                renderer.moveSelection(by: -1)
            }
            let bytes = sectionedOutput.take()
            #expect(!bytes.isEmpty)
            #expect(bytes == flatOutput.take())
        }
    }

    @Test("a trailing row follows the last section, and the viewport at the end keeps it in view")
    func trailingRowAfterTheLastSection() async {
        let source = RecordedSectionedSource(rows(10))
        let renderer = await renderer(source, lines: 6)
        renderer.selectLast()
        renderer.updateStatus { $0.trailingRow = "Loading…" }
        #expect(listText(renderer) == ["Tier 1 · 4", "row 7", "Tier 2 · 2", "row 8", "row 9", "Loading…"])
        // The next page arrives below the last row, in place of the trailing row; the rows on screen stay.
        source.source.add(rows(3, from: 10))
        for batch in await source.batches() { renderer.render(batch, title: title) }
        #expect(listText(renderer) == ["Tier 1 · 4", "row 7", "Tier 2 · 4", "row 8", "row 9", "row 10"])
        #expect(renderer.viewport.selectedID == 9)
    }

    @Test("scrolling by one row inside a section scrolls the lines under the pinned header, not the header")
    func scrollingUnderThePinnedHeaderScrollsTheTerminal() async {
        let source = RecordedSectionedSource((0..<40).map { TestRow(id: $0, key: $0 / 10 * 4) })  // sections of 10
        let output = OutputBuffer()
        let renderer = await renderer(source, lines: 8, output: output)
        renderer.scroll(toTop: 1)
        var screen = VirtualScreen(rows: 9, columns: 30)
        screen.feed(output.take())
        #expect(screen.text(ofRow: 0) == "Tier 0 · 10")
        renderer.scroll(toTop: 2)
        let update = output.take()
        let text = String(decoding: update, as: UTF8.self)
        // Lines 2…8 of the screen (the list below the header) scroll up by one.
        #expect(text.hasPrefix("\u{1B}[2;8r\u{1B}[1S\u{1B}[r"), "\(text.debugDescription)")
        #expect(text.filter { $0 == "H" }.count <= 2, "the new last row and the status line: \(text.debugDescription)")
        screen.feed(update)
        #expect(screen.text(ofRow: 0) == "Tier 0 · 10")
        #expect(screen.text(ofRow: 1) == "row 2")
        #expect(screen.text(ofRow: 7) == "row 8")
        #expect(screen.anomalies.isEmpty)
    }

    @Test("plain frames show the section headers as lines")
    func plainFramesShowHeaders() async {
        let source = RecordedSectionedSource(rows(6))
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: TerminalSize(rows: 6, columns: 30), mode: .plain(.everyBatch), output: output) { "row \($0.id)" }
        for batch in await source.batches() { renderer.render(batch, title: title) }
        _ = output.take()
        renderer.writeFrame()
        let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(5) == ["Tier 0 · 4", "row 0", "row 1", "row 2", "row 3"])
        #expect(lines.count == 8 && lines[5].hasPrefix("v") && lines[5].hasSuffix(" · 1/6") && lines[6].isEmpty)
    }

    @Test("a viewport's lines: a one-line viewport shows no headers, an empty list none either")
    func smallAndEmptyViewports() async {
        let source = RecordedSectionedSource(rows(8))
        var viewport = ListViewport<TestRow>(height: 1)
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.isSectioned)
        #expect(viewport.lines == [.row(0)])
        viewport.resize(height: 3)
        viewport.scroll(toTop: 7)
        #expect(viewport.top == 6)
        #expect(viewport.lines == [.sectionHeader(section: 1, rows: 4..<8), .row(6), .row(7)])
        source.source.removeAll()
        for batch in await source.batches() { viewport.apply(batch) }
        #expect(viewport.lines == [.empty, .empty, .empty])
        #expect(viewport.selection == nil)
    }
}

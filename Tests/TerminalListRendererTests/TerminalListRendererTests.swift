import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

@Suite struct TerminalListRendererTests {
    private let size = TerminalSize(rows: 8, columns: 30)

    private func rows(_ count: Int) -> [TestRow] {
        (0..<count).map { TestRow(id: $0, key: $0) }
    }

    private func makeRenderer(
        _ output: OutputBuffer,
        size: TerminalSize? = nil,
        mode: TerminalRenderMode = .ansi(colors: true),
        header: StyledText? = nil,
        counter: CallCounter? = nil
    ) -> TerminalListRenderer<TestRow> {
        TerminalListRenderer<TestRow>(size: size ?? self.size, mode: mode, output: output, header: header) { row, offset in
            counter?.increment()
            return StyledText("row \(row.id)") + StyledText(" p\(row.payload)", style: TextStyle(foreground: .cyan))
        }
    }

    /// The bytes one reload of a visible row writes, in a list of `count` rows.
    private func bytesForOneRowUpdate(listLength count: Int, counter: CallCounter) async -> [UInt8] {
        let source = ListDataSource(rows(count))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, size: TerminalSize(rows: 12, columns: 60), counter: counter)
        source.attach(renderer)
        await source.flush()
        _ = output.take()
        _ = counter.take()
        source.add(TestRow(id: 3, key: 3, payload: 7))
        await source.flush()
        return output.take()
    }

    @Test func aOneRowUpdateWritesTheSameBytesInA100RowAndA1000000RowList() async {
        let counter = CallCounter()
        let small = await bytesForOneRowUpdate(listLength: 100, counter: counter)
        let smallFormats = counter.take()
        let large = await bytesForOneRowUpdate(listLength: 1_000_000, counter: counter)
        let largeFormats = counter.take()
        print("bytes for a one-row update: \(small.count) (100 rows), \(large.count) (1,000,000 rows): \(String(decoding: small, as: UTF8.self).debugDescription)")
        #expect(small == large)
        #expect(!small.isEmpty)
        #expect(small.count < 64, "\(String(decoding: small, as: UTF8.self).debugDescription)")
        // Only the visible rows are formatted: the list is never walked.
        #expect(smallFormats <= 11, "12 screen rows: 11 list rows and the status line")
        #expect(largeFormats == smallFormats)
        // The reloaded row is rewritten from its first changed cell: "row 3 p7", the
        // "7" at column 8 of screen row 4; and the version in the status line.
        let text = String(decoding: small, as: UTF8.self)
        #expect(text.contains("\u{1B}[4;8H"))
        #expect(text.contains("7"))
        #expect(text.contains("\u{1B}[12;3H"))
    }

    @Test func onlyChangedRowsAreRewritten() async {
        let source = RecordedSource(rows(20))
        let output = OutputBuffer()
        let renderer = makeRenderer(output)
        for batch in await source.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        source.source.add(TestRow(id: 30, key: 100))  // below the viewport
        for batch in await source.batches() { renderer.render(batch) }
        let offscreen = String(decoding: output.take(), as: UTF8.self)
        #expect(!offscreen.contains("row"), "a change below the viewport rewrites only the status line: \(offscreen.debugDescription)")
        #expect(offscreen.contains("\u{1B}[8;"))
        source.source.add(TestRow(id: 2, key: 2, payload: 5))
        for batch in await source.batches() { renderer.render(batch) }
        let update = String(decoding: output.take(), as: UTF8.self)
        #expect(update.contains("\u{1B}[3;"))
        #expect(!update.contains("\u{1B}[2J"))
        #expect(!update.contains("\u{1B}[1;"))
        #expect(!update.contains("\u{1B}[2;"))
        #expect(!update.contains("\u{1B}[4;"))
    }

    @Test func theFirstFrameAndResizesDrawEverything() async {
        let source = RecordedSource(rows(20))
        let output = OutputBuffer()
        let renderer = makeRenderer(output)
        for batch in await source.batches() { renderer.render(batch) }
        #expect(output.text.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        _ = output.take()
        renderer.resize(to: TerminalSize(rows: 5, columns: 20))
        var screen = VirtualScreen(rows: 5, columns: 20)
        screen.feed(output.take())
        #expect(screen.textLines == ["row 0 p0", "row 1 p0", "row 2 p0", "row 3 p0", " v1 · 1/20"])
        renderer.resize(to: TerminalSize(rows: 5, columns: 20))
        #expect(output.take().isEmpty, "the same size changes nothing")
    }

    @Test func theStatusLineShowsVersionSelectionLoadingErrorAndNote() async {
        let source = RecordedSource(rows(2500))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, size: TerminalSize(rows: 4, columns: 80))
        for batch in await source.batches() { renderer.render(batch) }
        renderer.moveSelection(by: 1)
        renderer.updateStatus {
            $0.isLoading = true
            $0.lastError = "page 3: HTTP 500"
            $0.note = "by score"
        }
        #expect(renderer.frameText().last == " v1 · 2/2,500 · loading… · ✗ page 3: HTTP 500 · by score")
        renderer.updateStatus { $0 = TerminalStatus() }
        #expect(renderer.frameText().last == " v1 · 2/2,500")
    }

    @Test func theTrailingRowFollowsTheLastItem() async {
        let source = RecordedSource(rows(3))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, size: TerminalSize(rows: 6, columns: 20))
        for batch in await source.batches() { renderer.render(batch) }
        renderer.updateStatus { $0.trailingRow = StyledText("Loading…", style: TextStyle(isDim: true)) }
        #expect(renderer.frameText().prefix(5) == ["row 0 p0", "row 1 p0", "row 2 p0", "Loading…", ""])
        renderer.updateStatus { $0.trailingRow = nil }
        #expect(renderer.frameText()[3] == "")
    }

    @Test func headerRow() async {
        let source = RecordedSource(rows(3))
        let renderer = makeRenderer(OutputBuffer(), size: TerminalSize(rows: 4, columns: 20), header: "  #  Name")
        for batch in await source.batches() { renderer.render(batch) }
        #expect(renderer.frameText() == ["  #  Name", "row 0 p0", "row 1 p0", " v1 · 1/3"])
        renderer.header = nil
        #expect(renderer.frameText() == ["row 0 p0", "row 1 p0", "row 2 p0", " v1 · 1/3"])
    }

    @Test func wideCharactersAndLongRowsAreCutToTheWidth() async {
        let source = RecordedSource((0..<awkwardNames.count).map { TestRow(id: $0, key: $0) })
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: TerminalSize(rows: 14, columns: 9), mode: .ansi(colors: true), output: output) { row, _ in
            StyledText(awkwardNames[row.id])
        }
        for batch in await source.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: 14, columns: 9)
        screen.feed(output.take())
        #expect(screen.anomalies.isEmpty, "\(screen.anomalies)")
        #expect(screen.textLines.prefix(13) == [
            "Zoë Lind…", "王小明", "Kai 🦊", "👩‍💻 Dana", "a^[[31mr…", "tab^Ihere", "🇸🇪 flag", "e\u{301}clair",
            "a name l…", "\\u{202E}…", "김민준", "plain", "",
        ])
    }

    @Test func controlCharactersInItemsNeverReachTheTerminal() async {
        let source = RecordedSource([TestRow(id: 4, key: 0), TestRow(id: 5, key: 1), TestRow(id: 9, key: 2)])
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: size, mode: .ansi(colors: true), output: output) { row, _ in
            StyledText("\u{1B}]0;pwned\u{7}\u{9B}2J" + awkwardNames[row.id])
        }
        for batch in await source.batches() { renderer.render(batch) }
        let bytes = output.take()
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(bytes)
        #expect(screen.anomalies.isEmpty, "\(screen.anomalies)")
        #expect(!bytes.contains(0x07))
        #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(screen.text(ofRow: 0).hasPrefix("^[]0;pwned^G\\u{9B}2J"))
    }

    @Test func aRowEndingInAPrependingMarkIsRedrawnExactly() async {
        // U+0D4E joins the character after it into its cluster. Written unescaped at the
        // end of a row, it swallowed the padding after it, so a shorter row left a stale
        // cell behind and a selected row lost its last highlighted column.
        let size = TerminalSize(rows: 3, columns: 10)
        let source = RecordedSource([TestRow(id: 1, key: 0), TestRow(id: 2, key: 1)])
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: size, mode: .ansi(colors: false), output: output) { row, _ in
            StyledText(row.payload == 0 ? "abcdefgh" : "x\u{0D4E}")
        }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        for batch in await source.batches() { renderer.render(batch) }
        screen.feed(output.take())
        source.source.add([TestRow(id: 1, key: 0, payload: 1), TestRow(id: 2, key: 1, payload: 1)])
        for batch in await source.batches() { renderer.render(batch) }
        screen.feed(output.take())
        renderer.redraw()
        var full = VirtualScreen(rows: size.rows, columns: size.columns)
        full.feed(output.take())
        #expect(screen.anomalies.isEmpty && full.anomalies.isEmpty, "\(screen.anomalies) \(full.anomalies)")
        #expect(screen.cells == full.cells)
        #expect(screen.text(ofRow: 1) == "x\\u{D4E}")
        #expect(screen.cells[0][9].style.isReversed, "the selected row is highlighted to its last column")
    }

    @Test func noColorModeWritesNoColourCodes() async {
        let source = RecordedSource(rows(5))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, mode: .ansi(colors: false))
        for batch in await source.batches() { renderer.render(batch) }
        renderer.updateStatus { $0.lastError = "boom" }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        let styles = screen.cells.joined().map(\.style)
        #expect(styles.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(styles.contains { $0.isReversed }, "the selection bar is an attribute, not a colour")
        // With colours, the same screen has them.
        let colored = OutputBuffer()
        let other = makeRenderer(colored, mode: .ansi(colors: true))
        if let snapshot = renderer.viewport.snapshot { other.render(attachBatch(snapshot)) }
        var coloredScreen = VirtualScreen(rows: size.rows, columns: size.columns)
        coloredScreen.feed(colored.take())
        #expect(coloredScreen.cells.joined().contains { $0.style.foreground == .cyan })
    }

    @Test func plainModeWritesLinesWithoutEscapeCodes() async {
        let source = RecordedSource(rows(3))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, mode: .plain(.everyBatch), header: "Rows")
        for batch in await source.batches() { renderer.render(batch) }
        source.source.add(TestRow(id: 1, key: 1, payload: 9))
        for batch in await source.batches() { renderer.render(batch) }
        renderer.moveSelection(by: 1)
        let text = output.text
        #expect(!text.utf8.contains(0x1B))
        #expect(text == "Rows\nrow 0 p0\nrow 1 p0\nrow 2 p0\nv1 · 1/3\n\nRows\nrow 0 p0\nrow 1 p9\nrow 2 p0\nv2 · 1/3\n\n")
        #expect(renderer.framesWritten == 2)
    }

    @Test func plainModeOnRequestWritesOnlyWhenAsked() async {
        let source = RecordedSource(rows(2))
        let output = OutputBuffer()
        let renderer = makeRenderer(output, mode: .plain(.onRequest))
        for batch in await source.batches() { renderer.render(batch) }
        #expect(output.bytes.isEmpty)
        renderer.writeFrame()
        #expect(output.text == "row 0 p0\nrow 1 p0\nv1 · 1/2\n\n")
    }

    @Test func navigationRedrawsOnlyTheRowsThatChanged() async {
        let source = RecordedSource(rows(50))
        let output = OutputBuffer()
        let renderer = makeRenderer(output)
        for batch in await source.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        renderer.moveSelection(by: 1)
        let update = output.take()
        screen.feed(update)
        let text = String(decoding: update, as: UTF8.self)
        #expect(text.contains("\u{1B}[1;1H") && text.contains("\u{1B}[2;1H"))
        #expect(!text.contains("\u{1B}[3;"))
        #expect(screen.cells[1][0].style.isReversed)
        #expect(!screen.cells[0][0].style.isReversed)
    }

    @Test func scrollingByOneRowScrollsTheTerminalInsteadOfRewritingEveryRow() async {
        let source = RecordedSource(rows(100))
        let output = OutputBuffer()
        let size = TerminalSize(rows: 20, columns: 40)
        let renderer = makeRenderer(output, size: size, header: "Rows")
        for batch in await source.batches() { renderer.render(batch) }
        renderer.moveSelection(by: 17)
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        renderer.moveSelection(by: 1)  // past the last visible row: the list scrolls by one
        let update = output.take()
        let text = String(decoding: update, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[2;19r\u{1B}[1S\u{1B}[r"), "\(text.debugDescription)")
        let rowsWritten = text.filter { $0 == "H" }.count
        #expect(rowsWritten <= 3, "the row that lost the selection, the new last row and the status line: \(text.debugDescription)")
        screen.feed(update)
        #expect(screen.text(ofRow: 18) == "row 18 p0")
        #expect(screen.text(ofRow: 1) == "row 1 p0")
        #expect(screen.anomalies.isEmpty)
        print("bytes to scroll a 40×20 list by one row: \(update.count)")

        // Scrolling up by one goes the other way.
        renderer.scroll(toTop: 0)
        _ = output.take()
        renderer.selectFirst()
        renderer.scroll(toTop: 3)
        _ = output.take()
        renderer.scroll(toTop: 2)
        #expect(String(decoding: output.take(), as: UTF8.self).hasPrefix("\u{1B}[2;19r\u{1B}[1T\u{1B}[r"))
    }

    @Test func aClosedRendererWritesNothing() async {
        let source = RecordedSource(rows(5))
        let output = OutputBuffer()
        let renderer = makeRenderer(output)
        for batch in await source.batches() { renderer.render(batch) }
        #expect(!output.take().isEmpty)
        renderer.close()
        source.source.add(TestRow(id: 9, key: -1))
        for batch in await source.batches() { renderer.render(batch) }
        renderer.moveSelection(by: 1)
        renderer.redraw()
        #expect(output.take().isEmpty)
        #expect(renderer.viewport.count == 6, "the state still follows the batches")
    }

    @Test func visibleRowsAreReportedWhenTheyChange() async {
        let source = RecordedSource(rows(50))
        let renderer = makeRenderer(OutputBuffer())
        let reports = ReportLog()
        renderer.observeVisibleRows { visible, count in reports.append(visible, count) }
        for batch in await source.batches() { renderer.render(batch) }
        renderer.selectLast()
        renderer.moveSelection(by: 0)
        #expect(reports.entries.map(\.visible) == [0..<0, 0..<7, 43..<50])
        #expect(reports.entries.last?.count == 50)
    }

    @Test func screenEncoderNeverPositionsTheCursorPastAnAmbiguousCluster() {
        let old = _LineLayout.line("👩‍💻 score 10", columns: 16, colors: true)
        let new = _LineLayout.line("👩‍💻 score 11", columns: 16, colors: true)
        #expect(_ScreenEncoder.changedColumns(from: old, to: new) == 0..<16)
        let plainOld = _LineLayout.line("Dana score 10", columns: 16, colors: true)
        let plainNew = _LineLayout.line("Dana score 11", columns: 16, colors: true)
        #expect(_ScreenEncoder.changedColumns(from: plainOld, to: plainNew) == 12..<13)
        // A syllable with a spacing vowel sign: 1 column here, 2 for wcwidth.
        let syllableOld = _LineLayout.line("\u{915}\u{93F}\u{915}\u{93F} 100", columns: 12, colors: true)
        let syllableNew = _LineLayout.line("\u{915}\u{93F}\u{915}\u{93F} 200", columns: 12, colors: true)
        #expect(_ScreenEncoder.changedColumns(from: syllableOld, to: syllableNew) == 0..<12)
        let wideOld = _LineLayout.line("ab王c", columns: 8, colors: true)
        let wideNew = _LineLayout.line("abxyc", columns: 8, colors: true)
        #expect(_ScreenEncoder.changedColumns(from: wideOld, to: wideNew) == 2..<4)
    }

    @Test func aTrailingRowAppearingAtTheEndKeepsTheSelectedRowOnScreen() async {
        let source = RecordedSource((0 ..< 20).map { TestRow(id: $0, key: $0 * 10) })
        let renderer = TerminalListRenderer<TestRow>(
            size: TerminalSize(rows: 7, columns: 30), mode: .ansi(colors: false), output: OutputBuffer(),
            header: StyledText("header")
        ) { row, _ in StyledText("row \(row.id)") }
        for batch in await source.batches() { renderer.render(batch) }
        renderer.selectLast()  // rows 15…19 on screen, 19 selected
        renderer.moveSelection(by: -4)  // 15: the top row on screen
        #expect(renderer.viewport.top == 15 && renderer.viewport.selection == 15)
        renderer.updateStatus { $0.trailingRow = StyledText("Loading…") }
        #expect(renderer.viewport.visibleRows.contains(15), "the selected row left the screen:\n\(renderer.frameText().joined(separator: "\n"))")
        // With the selection lower down, the end scrolls to show the trailing row.
        renderer.updateStatus { $0.trailingRow = nil }
        renderer.moveSelection(by: 2)
        renderer.updateStatus { $0.trailingRow = StyledText("Loading…") }
        #expect(renderer.frameText().contains { $0.hasPrefix("Loading…") } && renderer.viewport.visibleRows.contains(17))
    }
}

private final class ReportLog: Sendable {
    private let storage = LockedState<[(visible: Range<Int>, count: Int)]>([])
    func append(_ visible: Range<Int>, _ count: Int) { storage.withLock { $0.append((visible, count)) } }
    var entries: [(visible: Range<Int>, count: Int)] { storage.withLock { $0 } }
}


import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

/// A list that holds a window of a larger source: rows arrive above the first row
/// (previous pages) and leave at the other end (dropped pages), and the status line
/// counts in the source.
@Suite struct WindowedListRenderingTests {
    private let size = TerminalSize(rows: 12, columns: 72)

    private func makeRenderer(_ output: OutputBuffer) -> TerminalListRenderer<TestRow> {
        TerminalListRenderer<TestRow>(size: size, mode: .ansi(colors: true), output: output, header: "Rows") { row, _ in
            StyledText("row \(row.id)", style: TextStyle(foreground: .green)) + StyledText(" k\(row.key)")
        }
    }

    private func fullRedraw(of renderer: TerminalListRenderer<TestRow>, _ output: OutputBuffer) -> VirtualScreen {
        renderer.redraw()
        var full = VirtualScreen(rows: size.rows, columns: size.columns)
        full.feed(output.take())
        return full
    }

    /// The list line (after the header) where row `id` is drawn, if it is on screen.
    private func line(of id: Int, on screen: VirtualScreen) -> Int? {
        (1..<size.rows - 1).first { screen.text(ofRow: $0).hasPrefix("row \(id) ") }
    }

    /// A previous page arrives while the window's first row is on the first list line,
    /// and the page at the far end is dropped in the same batch: with rows above not
    /// loaded, the first row stays on its line (no jump to the new rows), and the screen
    /// is what a full redraw shows.
    @Test func aPrependKeepsTheTopVisibleRowInPlace() async {
        for (start, selected) in [(0, 0), (0, 4), (3, 5), (12, 20)] {
            let output = OutputBuffer()
            let recorded = RecordedSource((100..<150).map { TestRow(id: $0, key: $0) })
            let renderer = makeRenderer(output)
            for batch in await recorded.batches() { renderer.render(batch) }
            renderer.updateStatus { $0.hasRowsAbove = true }
            renderer.moveSelection(by: selected)
            renderer.scroll(toTop: start)
            var screen = VirtualScreen(rows: size.rows, columns: size.columns)
            screen.feed(output.take())
            let topID = 100 + start
            let selectedID = renderer.viewport.selectedID
            #expect(line(of: topID, on: screen) == 1)

            // The previous page (rows 50..<100) and the drop of the last 20 rows, as a
            // windowed paginator applies them.
            recorded.source.add((50..<100).map { TestRow(id: $0, key: $0) })
            recorded.source.remove(ids: Array(130..<150))
            for batch in await recorded.batches() { renderer.render(batch) }
            screen.feed(output.take())

            #expect(line(of: topID, on: screen) == 1, "start \(start): row \(topID) moved from the first list line")
            #expect(renderer.viewport.top == 50 + start)
            #expect(renderer.viewport.selectedID == selectedID, "the selection follows its row")
            #expect(screen.cells == fullRedraw(of: renderer, output).cells, "start \(start)")
            #expect(screen.anomalies.isEmpty, "\(screen.anomalies)")
        }
    }

    /// Without rows above (the start of the list is loaded), rows inserted above a
    /// viewport at the very top show: a new leader appears on the first line.
    @Test func atTheStartOfTheListRowsInsertedAboveShow() async {
        let output = OutputBuffer()
        let recorded = RecordedSource((100..<150).map { TestRow(id: $0, key: $0) })
        let renderer = makeRenderer(output)
        for batch in await recorded.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        recorded.source.add([TestRow(id: 1, key: 1)])
        for batch in await recorded.batches() { renderer.render(batch) }
        screen.feed(output.take())
        #expect(line(of: 1, on: screen) == 1)
        #expect(line(of: 100, on: screen) == 2)
        #expect(screen.cells == fullRedraw(of: renderer, output).cells)
    }

    /// Pages dropped above the viewport (the user scrolls down a window) leave the
    /// visible rows where they are too.
    @Test func aDropAboveKeepsTheVisibleRowsInPlace() async {
        let output = OutputBuffer()
        let recorded = RecordedSource((0..<60).map { TestRow(id: $0, key: $0) })
        let renderer = makeRenderer(output)
        for batch in await recorded.batches() { renderer.render(batch) }
        renderer.scroll(toTop: 45)
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        #expect(line(of: 45, on: screen) == 1)
        recorded.source.add((60..<80).map { TestRow(id: $0, key: $0) })
        recorded.source.remove(ids: Array(0..<20))
        for batch in await recorded.batches() { renderer.render(batch) }
        screen.feed(output.take())
        #expect(line(of: 45, on: screen) == 1)
        #expect(renderer.viewport.top == 25)
        #expect(screen.cells == fullRedraw(of: renderer, output).cells)
    }

    @Test func theStatusLineCountsInTheSourceWhenGivenPositions() async {
        let output = OutputBuffer()
        let recorded = RecordedSource((0..<30).map { TestRow(id: $0, key: $0) })
        let renderer = makeRenderer(output)
        for batch in await recorded.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        let status = size.rows - 1
        #expect(screen.text(ofRow: status) == " v1 · 1/30")

        renderer.showPositionInSource { row in TerminalSourcePosition(offset: 1_000 + row.id, total: 1_000_000) }
        screen.feed(output.take())
        #expect(screen.text(ofRow: status).hasPrefix(" v1 · 1,001/1,000,000 · rows 1,001–1,030 of 1,000,000 loaded"))
        renderer.selectLast()
        screen.feed(output.take())
        #expect(screen.text(ofRow: status).hasPrefix(" v1 · 1,030/1,000,000 · rows 1,001–1,030 of 1,000,000 loaded"))

        // Rows arriving above move the first loaded row; the selection keeps its place.
        recorded.source.add((-5..<0).map { TestRow(id: $0, key: $0) })
        for batch in await recorded.batches() { renderer.render(batch) }
        screen.feed(output.take())
        #expect(screen.text(ofRow: status).hasPrefix(" v2 · 1,030/1,000,000 · rows 996–1,030 of 1,000,000 loaded"))

        // An unknown total, and a row the source cannot place.
        renderer.showPositionInSource { row in TerminalSourcePosition(offset: 1_000 + row.id, total: nil) }
        screen.feed(output.take())
        #expect(screen.text(ofRow: status).hasPrefix(" v2 · 1,030 · rows 996–1,030 loaded"))
        renderer.showPositionInSource { row in row.id == 29 ? nil : TerminalSourcePosition(offset: row.id, total: 10) }
        screen.feed(output.take())
        #expect(screen.text(ofRow: status) == " v2 · 35/35")
        renderer.showPositionInSource(nil)
        screen.feed(output.take())
        #expect(screen.text(ofRow: status) == " v2 · 35/35")
        #expect(screen.cells == fullRedraw(of: renderer, output).cells)
    }
}

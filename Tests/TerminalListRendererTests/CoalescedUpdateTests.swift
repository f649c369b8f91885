import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

/// `coalescingUpdates`: a burst of changes is written as one update.
@Suite struct CoalescedUpdateTests {
    private let size = TerminalSize(rows: 10, columns: 32)

    private func makeRenderer(_ output: OutputBuffer, mode: TerminalRenderMode = .ansi(colors: true)) -> TerminalListRenderer<TestRow> {
        TerminalListRenderer<TestRow>(size: size, mode: mode, output: output, header: "Rows") { row, offset in
            StyledText("\(offset + 1) ", style: TextStyle(isDim: true)) + StyledText("row \(row.id)", style: TextStyle(foreground: .green))
        }
    }

    /// A renderer showing `count` rows, with its first screen taken from the output.
    private func shown(_ count: Int, output: OutputBuffer, mode: TerminalRenderMode = .ansi(colors: true)) async -> (TerminalListRenderer<TestRow>, RecordedSource, VirtualScreen) {
        let source = RecordedSource((0..<count).map { TestRow(id: $0, key: $0) })
        let renderer = makeRenderer(output, mode: mode)
        for batch in await source.batches() { renderer.render(batch) }
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        screen.feed(output.take())
        return (renderer, source, screen)
    }

    @Test func aFloodOf2000KeysIsOneUpdateNotOnePerKey() async {
        let output = OutputBuffer()
        let (renderer, _, initial) = await shown(5_000, output: output)
        var screen = initial
        let framesBefore = renderer.framesWritten
        renderer.coalescingUpdates {
            for _ in 0..<2_000 { renderer.moveSelection(by: 1) }
        }
        #expect(output.writeCount == 1, "one write for the whole burst")
        #expect(renderer.framesWritten == framesBefore + 1)
        #expect(renderer.viewport.selection == 2_000)
        screen.feed(output.take())
        renderer.redraw()
        var full = VirtualScreen(rows: size.rows, columns: size.columns)
        full.feed(output.take())
        #expect(screen.cells == full.cells, "the one update leaves the screen as a full redraw would")
        #expect(screen.anomalies.isEmpty, "\(screen.anomalies)")
        // Without coalescing, the same keys cost one update each.
        for _ in 0..<50 { renderer.moveSelection(by: 1) }
        #expect(output.writeCount == 50)
    }

    @Test func burstsOfDifferentKindsCoalesceAndNest() async {
        let output = OutputBuffer()
        let (renderer, source, initial) = await shown(300, output: output)
        var screen = initial
        let result = renderer.coalescingUpdates {
            renderer.pageDown()
            renderer.coalescingUpdates {
                renderer.selectLast()
                renderer.updateStatus { $0.isLoading = true }
            }
            #expect(output.writeCount == 0, "the inner call does not write while the outer one runs")
            renderer.moveSelection(by: -3)
            return 42
        }
        #expect(result == 42)
        #expect(output.writeCount == 1)
        #expect(renderer.viewport.selection == 296)
        screen.feed(output.take())
        #expect(screen.text(ofRow: size.rows - 1).contains("loading"))
        // A batch delivered during the burst is held too and drawn with it.
        source.source.add(TestRow(id: 1_000, key: 1_000))
        let batches = await source.batches()
        renderer.coalescingUpdates {
            for batch in batches { renderer.render(batch) }
            renderer.moveSelection(by: 3)
        }
        #expect(output.writeCount == 1)
        screen.feed(output.take())
        renderer.redraw()
        var full = VirtualScreen(rows: size.rows, columns: size.columns)
        full.feed(output.take())
        #expect(screen.cells == full.cells)
    }

    @Test func aBurstThatChangesNothingOnScreenWritesNothing() async {
        let output = OutputBuffer()
        let (renderer, _, _) = await shown(3, output: output)
        renderer.coalescingUpdates {
            renderer.moveSelection(by: -1)  // already at the first row
            renderer.scroll(toTop: 0)
        }
        #expect(output.writeCount == 0)
    }

    @Test func aRedrawInsideABurstIsOneFullRedraw() async {
        let output = OutputBuffer()
        let (renderer, _, _) = await shown(30, output: output)
        renderer.coalescingUpdates {
            renderer.redraw()
            renderer.moveSelection(by: 1)
            renderer.redraw()
        }
        #expect(output.writeCount == 1)
        #expect(output.text.contains("\u{1B}[2J"), "the held redraw clears and draws the whole screen")
    }

    @Test func plainModeWritesOneFrameForABurstAndNoneWhenNoneWasDue() async {
        let output = OutputBuffer()
        let (renderer, source, _) = await shown(4, output: output, mode: .plain(.everyBatch))
        renderer.coalescingUpdates {
            for _ in 0..<3 { renderer.moveSelection(by: 1) }
        }
        #expect(output.writeCount == 0, "navigation alone writes no plain frame")
        source.source.add(TestRow(id: 10, key: 10))
        source.source.add(TestRow(id: 11, key: 11))
        let batches = await source.batches()
        renderer.coalescingUpdates {
            for batch in batches { renderer.render(batch) }
        }
        #expect(output.writeCount == 1)
        #expect(output.text.hasSuffix(" · 4/6\n\n"), "one frame, with both rows: \(output.text.debugDescription)")
    }

    @Test func visibleRowsAreReportedOnceAtTheEnd() async {
        let output = OutputBuffer()
        let (renderer, _, _) = await shown(500, output: output)
        let reports = CallCounter()
        renderer.observeVisibleRows { _, _ in reports.increment() }
        _ = reports.take()
        renderer.coalescingUpdates {
            for _ in 0..<100 { renderer.moveSelection(by: 1) }
        }
        #expect(reports.take() == 1)
    }

    @Test func aClosedRendererWritesNothingAtTheEndOfABurst() async {
        let output = OutputBuffer()
        let (renderer, _, _) = await shown(30, output: output)
        renderer.coalescingUpdates {
            renderer.moveSelection(by: 5)
            renderer.close()
        }
        #expect(output.writeCount == 0)
    }
}

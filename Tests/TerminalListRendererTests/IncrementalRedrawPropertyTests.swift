import ListEngine
import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

/// After any sequence of batches, scrolling, selection moves, status changes and
/// resizes, the screen built by applying the renderer's incremental updates equals a
/// fresh full render of the latest snapshot.
@Suite(.cpuBound) struct IncrementalRedrawPropertyTests {
    @Test func incrementalUpdatesEqualAFullRedraw() async {
        for seed in UInt64(1)...500 {
            // Stop at the first failing seed: its report is the one to read.
            guard await run(seed: seed) else { break }
        }
    }

    /// Returns whether every check passed.
    private func run(seed: UInt64) async -> Bool {
        var rng = SplitMix64(seed: seed)
        var size = TerminalSize(rows: rng.int(in: 1..<10), columns: rng.int(in: 1..<26))
        let mode = TerminalRenderMode.ansi(colors: rng.chance(0.7))
        let header: StyledText? = rng.chance(0.4) ? StyledText("#  Name 王", style: TextStyle(isUnderlined: true)) : nil
        let source = RecordedSource((0..<rng.int(in: 0..<40)).map { TestRow(id: $0, key: rng.int(in: 0..<20), payload: rng.int(in: 0..<3)) })
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: size, mode: mode, output: output, header: header, formatRow: awkwardFormatter)
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        var nextID = 1000
        // The snapshot of the last batch the renderer was given.
        var latest: ListSnapshot<TestRow>? = nil

        for step in 0..<24 {
            let rows = latest.map(Array.init) ?? []
            switch rng.int(in: 0..<7) {
            case 0:
                source.source.add((0..<rng.int(in: 1..<8)).map { _ in
                    nextID += 1
                    return TestRow(id: nextID, key: rng.int(in: 0..<20))
                })
            case 1 where !rows.isEmpty:
                source.source.remove(ids: (0..<rng.int(in: 1..<5)).map { _ in rows[rng.int(in: 0..<rows.count)].id })
            case 2 where !rows.isEmpty:
                source.source.add((0..<rng.int(in: 1..<5)).map { _ in
                    var row = rows[rng.int(in: 0..<rows.count)]
                    if rng.chance(0.5) { row.key = rng.int(in: 0..<20) } else { row.payload += 1 }
                    return row
                })
            case 3:
                source.source.sort(by: TestOrder.allCases[rng.int(in: 0..<TestOrder.allCases.count)].comparator)
            case 4 where !rows.isEmpty:
                var replacement = rows.filter { _ in rng.chance(0.7) }
                replacement += (0..<rng.int(in: 0..<4)).map { _ in nextID += 1; return TestRow(id: nextID, key: rng.int(in: 0..<20)) }
                source.source.replaceAll(with: replacement)
            default:
                break
            }
            for batch in await source.batches() {
                renderer.render(batch)
                screen.feed(output.take())
                latest = batch.new
            }
            guard check(screen, renderer, showing: latest, seed: seed, step: step, what: "batch") else { return false }

            for _ in 0..<rng.int(in: 0..<3) {
                let what: String
                switch rng.int(in: 0..<10) {
                case 0: renderer.moveSelection(by: rng.int(in: -3..<4)); what = "move"
                case 1: renderer.pageDown(); what = "pageDown"
                case 2: renderer.pageUp(); what = "pageUp"
                case 3: renderer.selectLast(); what = "selectLast"
                case 4: renderer.selectFirst(); what = "selectFirst"
                case 5: renderer.scroll(toTop: rng.int(in: 0..<max(1, (latest?.count ?? 0) + 2))); what = "scroll"
                case 6:
                    size = TerminalSize(rows: rng.int(in: 0..<10), columns: rng.int(in: 0..<26))
                    renderer.resize(to: size)
                    screen.resize(rows: size.rows, columns: size.columns)
                    what = "resize \(size)"
                case 7:
                    renderer.updateStatus {
                        $0.isLoading.toggle()
                        $0.trailingRow = rng.chance(0.5) ? StyledText("Loading… 🦊", style: TextStyle(isDim: true)) : nil
                    }
                    what = "loading"
                case 8:
                    renderer.updateStatus { $0.lastError = rng.chance(0.5) ? "HTTP 500 at page \(step)\u{1B}" : nil }
                    what = "error"
                default:
                    renderer.redraw(); what = "redraw"
                }
                screen.feed(output.take())
                guard check(screen, renderer, showing: latest, seed: seed, step: step, what: what) else { return false }
            }
        }
        return true
    }

    /// Checks that the renderer shows `latest`, the snapshot of the last batch it was
    /// given; compares the screen with a fresh renderer that draws the same state from
    /// scratch, and the visible rows with the snapshot directly.
    private func check(
        _ screen: VirtualScreen, _ renderer: TerminalListRenderer<TestRow>, showing latest: ListSnapshot<TestRow>?,
        seed: UInt64, step: Int, what: String
    ) -> Bool {
        let viewport = renderer.viewport
        let freshOutput = OutputBuffer()
        let reference = TerminalListRenderer<TestRow>(
            size: renderer.size, mode: renderer.mode, output: freshOutput, header: renderer.header, formatRow: awkwardFormatter
        )
        if let snapshot = viewport.snapshot { reference.render(attachBatch(snapshot)) }
        let status = renderer.status
        reference.updateStatus { $0 = status }
        if let id = viewport.selectedID { reference.select(id: id) }
        reference.scroll(toTop: viewport.top)
        _ = freshOutput.take()
        reference.redraw()
        var full = VirtualScreen(rows: renderer.size.rows, columns: renderer.size.columns)
        full.feed(freshOutput.take())

        var passed = true
        func expect(_ condition: Bool, _ comment: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
            guard !condition else { return }
            passed = false
            Issue.record(Comment(rawValue: comment()), sourceLocation: sourceLocation)
        }
        expect(screen.anomalies.isEmpty, "seed \(seed) step \(step) \(what): \(screen.anomalies)")
        let showsLatest = switch (viewport.snapshot, latest) {
        case (nil, nil): true
        case let (shown?, latest?): shown.isIdentical(to: latest)
        default: false
        }
        expect(showsLatest,
               "seed \(seed) step \(step) after \(what): the viewport holds version \(viewport.snapshot?.version ?? -1), the last batch \(latest?.version ?? -1)")
        expect(reference.viewport.top == viewport.top && reference.viewport.selection == viewport.selection, "seed \(seed) step \(step) \(what)")
        expect(screen.cells == full.cells, "seed \(seed) step \(step) after \(what):\n\(screen)\n--- full redraw ---\n\(full)")

        // The list rows show exactly the snapshot's rows at the viewport.
        guard let snapshot = viewport.snapshot else { return passed }
        let layout = _Layout(size: renderer.size, hasHeader: renderer.header != nil)
        for row in 0..<layout.listRows {
            let offset = viewport.top + row
            guard offset < snapshot.count else { break }
            let expected = TerminalText.truncated(awkwardFormatter(snapshot[offset], offset).plainText, toWidth: renderer.size.columns)
            var shown = screen.text(ofRow: layout.headerRows + row)
            if shown.count < expected.count { shown += String(repeating: " ", count: expected.count - shown.count) }
            expect(shown.hasPrefix(expected.trimmingTrailingSpaces()), "seed \(seed) step \(step): row \(offset) shows \(shown.debugDescription), not \(expected.debugDescription)")
        }
        return passed
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

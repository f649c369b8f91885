import ListEngine
import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

/// After any sequence of sectioned batches (rows changing section, sections appearing
/// and disappearing), scrolling, selection moves, header toggles, status changes and
/// resizes, the screen built by applying the renderer's incremental updates equals a
/// fresh full render of the latest snapshot, and its lines are the ones a slow model of
/// pinned headers predicts.
@Suite(.cpuBound) struct SectionedIncrementalRedrawPropertyTests {
    @Test func incrementalUpdatesOfASectionedListEqualAFullRedraw() async {
        for seed in UInt64(1)...300 {
            // Stop at the first failing seed: its report is the one to read.
            guard await run(seed: seed) else { break }
        }
    }

    /// Returns whether every check passed.
    private func run(seed: UInt64) async -> Bool {
        var rng = SplitMix64(seed: seed)
        var size = TerminalSize(rows: rng.int(in: 1..<12), columns: rng.int(in: 1..<26))
        let mode = TerminalRenderMode.ansi(colors: rng.chance(0.7))
        let header: StyledText? = rng.chance(0.4) ? StyledText("#  Name 王", style: TextStyle(isUnderlined: true)) : nil
        let source = RecordedSectionedSource((0..<rng.int(in: 0..<40)).map { TestRow(id: $0, key: rng.int(in: 0..<20), payload: rng.int(in: 0..<3)) })
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: size, mode: mode, output: output, header: header, formatRow: awkwardFormatter)
        var screen = VirtualScreen(rows: size.rows, columns: size.columns)
        var nextID = 1000
        // The snapshot of the last batch the renderer was given.
        var latest: SectionedSnapshot<Int, TestRow>? = nil

        for step in 0..<24 {
            let rows = latest.map { Array($0.rows) } ?? []
            switch rng.int(in: 0..<8) {
            case 0:
                source.source.add((0..<rng.int(in: 1..<8)).map { _ in
                    nextID += 1
                    return TestRow(id: nextID, key: rng.int(in: 0..<20))
                })
            case 1 where !rows.isEmpty:
                source.source.remove(ids: (0..<rng.int(in: 1..<5)).map { _ in rows[rng.int(in: 0..<rows.count)].id })
            case 2 where !rows.isEmpty:
                // Re-keyed rows change section a fifth of the time.
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
            case 5 where !rows.isEmpty:
                // A whole section goes, or every row of one moves to another.
                let tier = RecordedSectionedSource.tierOf(rows[rng.int(in: 0..<rows.count)])
                if rng.chance(0.5) {
                    source.source.remove { RecordedSectionedSource.tierOf($0) == tier }
                } else {
                    let target = rng.int(in: 0..<5) * 4
                    source.source.add(rows.filter { RecordedSectionedSource.tierOf($0) == tier }.map { TestRow(id: $0.id, key: target, payload: $0.payload) })
                }
            default:
                break
            }
            for batch in await source.batches() {
                renderer.render(batch, title: awkwardTitle)
                screen.feed(output.take())
                latest = batch.new
            }
            let fresh = await source.attachBatch()
            guard check(screen, renderer, showing: latest, fresh: fresh, seed: seed, step: step, what: "batch") else { return false }

            for _ in 0..<rng.int(in: 0..<4) {
                let what: String
                switch rng.int(in: 0..<12) {
                case 0: renderer.moveSelection(by: rng.int(in: -3..<4)); what = "move"
                case 1: renderer.pageDown(); what = "pageDown"
                case 2: renderer.pageUp(); what = "pageUp"
                case 3: renderer.selectLast(); what = "selectLast"
                case 4: renderer.selectFirst(); what = "selectFirst"
                case 5, 6: renderer.scroll(toTop: rng.int(in: 0..<max(1, (latest?.rows.count ?? 0) + 2))); what = "scroll"
                case 7:
                    size = TerminalSize(rows: rng.int(in: 0..<12), columns: rng.int(in: 0..<26))
                    renderer.resize(to: size)
                    screen.resize(rows: size.rows, columns: size.columns)
                    what = "resize \(size)"
                case 8:
                    renderer.updateStatus {
                        $0.isLoading.toggle()
                        $0.trailingRow = rng.chance(0.5) ? StyledText("Loading… 🦊", style: TextStyle(isDim: true)) : nil
                    }
                    what = "loading"
                case 9:
                    renderer.showsSectionHeaders.toggle()
                    what = "headers \(renderer.showsSectionHeaders)"
                case 10:
                    renderer.updateStatus { $0.lastError = rng.chance(0.5) ? "HTTP 500 at page \(step)" : nil }
                    what = "error"
                default:
                    renderer.redraw(); what = "redraw"
                }
                screen.feed(output.take())
                guard check(screen, renderer, showing: latest, fresh: fresh, seed: seed, step: step, what: what) else { return false }
            }
        }
        return true
    }

    /// Checks that the renderer shows `latest`, the snapshot of the last batch it was
    /// given: compares the screen with a fresh renderer that draws the same state from
    /// `fresh`, an attach batch of the same snapshot, and the lines with ``expectedLines``.
    private func check(
        _ screen: VirtualScreen, _ renderer: TerminalListRenderer<TestRow>, showing latest: SectionedSnapshot<Int, TestRow>?,
        fresh: SectionedChangeBatch<Int, TestRow>, seed: UInt64, step: Int, what: String
    ) -> Bool {
        let viewport = renderer.viewport
        let freshOutput = OutputBuffer()
        let reference = TerminalListRenderer<TestRow>(
            size: renderer.size, mode: renderer.mode, output: freshOutput, header: renderer.header, formatRow: awkwardFormatter
        )
        reference.showsSectionHeaders = renderer.showsSectionHeaders
        if latest != nil { reference.render(fresh, title: awkwardTitle) }
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
        case let (shown?, latest?): shown.isIdentical(to: latest.rows) && fresh.new.rows.isIdentical(to: latest.rows)
        default: false
        }
        expect(showsLatest,
               "seed \(seed) step \(step) after \(what): the viewport holds version \(viewport.snapshot?.version ?? -1), the last batch \(latest?.version ?? -1)")
        expect(reference.viewport.top == viewport.top && reference.viewport.selection == viewport.selection,
               "seed \(seed) step \(step) \(what): top \(viewport.top), selection \(String(describing: viewport.selection)); from scratch \(reference.viewport.top), \(String(describing: reference.viewport.selection))")
        expect(screen.cells == full.cells, "seed \(seed) step \(step) after \(what):\n\(screen)\n--- full redraw ---\n\(full)")

        // The lines are the slow model's, and each shows its row or its section's title.
        guard let latest else { return passed }
        let expected = expectedLines(latest, viewport: viewport)
        expect(viewport.lines == expected, "seed \(seed) step \(step) after \(what): lines \(viewport.lines), expected \(expected)")
        // Never scrolled past the lowest top that shows the end; navigation shows the selection.
        let count = latest.rows.count
        if viewport.showsSectionHeaders && viewport.height >= 2 && count > 0 {
            // Showing the end is false and then true as the top goes down the list.
            let lowest = (0..<count)._partitionIndex { top in
                let lines = expectedLines(latest, viewport: viewport, top: top)
                return lines.contains(.row(count - 1)) && (!viewport.hasTrailingRow || viewport.height < 3 || lines.contains(.trailingRow))
            }
            expect(viewport.top <= lowest, "seed \(seed) step \(step) after \(what): top \(viewport.top) past \(lowest), the lowest that shows the end")
            if what == "selectLast" { expect(viewport.top == lowest, "seed \(seed) step \(step): selectLast scrolled to \(viewport.top), not \(lowest)") }
        }
        if let selection = viewport.selection, ["move", "pageDown", "pageUp", "selectLast", "selectFirst"].contains(what), viewport.height > 0 {
            expect(expected.contains(.row(selection)), "seed \(seed) step \(step) after \(what): selection \(selection) not in \(expected)")
        }
        let layout = _Layout(size: renderer.size, hasHeader: renderer.header != nil)
        for (index, line) in expected.enumerated() where index < layout.listRows {
            let text: String
            switch line {
            case .row(let offset): text = awkwardFormatter(latest.rows[offset], offset).plainText
            case .sectionHeader(let section, let rows): text = "\(awkwardTitle(latest.sections[section].key)) · \(rows.count)"
            case .trailingRow, .empty: continue
            }
            let wanted = TerminalText.truncated(text, toWidth: renderer.size.columns).trimmingTrailingSpaces()
            var shown = screen.text(ofRow: layout.headerRows + index)
            if shown.count < wanted.count { shown += String(repeating: " ", count: wanted.count - shown.count) }
            expect(shown.hasPrefix(wanted), "seed \(seed) step \(step): line \(index) shows \(shown.debugDescription), not \(wanted.debugDescription)")
        }
        return passed
    }

    /// The viewport's lines by definition: every section's header followed by its rows,
    /// then the trailing row, read from the first visible row on, under the header of
    /// its section; or, without headers, the rows from the first visible one.
    private func expectedLines(_ snapshot: SectionedSnapshot<Int, TestRow>, viewport: ListViewport<TestRow>, top: Int? = nil) -> [ListViewport<TestRow>.Line] {
        let count = snapshot.rows.count
        let top = top ?? viewport.top
        var lines: [ListViewport<TestRow>.Line] = []
        if viewport.showsSectionHeaders && viewport.height >= 2 && count > 0 {
            var all: [ListViewport<TestRow>.Line] = []
            var sectionOfTop: ListViewport<TestRow>.Line?
            for (index, section) in snapshot.sections.enumerated() {
                all.append(.sectionHeader(section: index, rows: section.rows))
                if section.rows.contains(top) { sectionOfTop = .sectionHeader(section: index, rows: section.rows) }
                all += section.rows.map { .row($0) }
            }
            if viewport.hasTrailingRow { all.append(.trailingRow) }
            guard let sectionOfTop, let start = all.firstIndex(of: .row(top)) else { return [] }
            lines = [sectionOfTop] + all[start...].prefix(viewport.height - 1)
        } else {
            for line in 0..<viewport.height {
                let offset = top + line
                lines.append(offset < count ? .row(offset) : offset == count && viewport.hasTrailingRow ? .trailingRow : .empty)
            }
        }
        return lines + Array(repeating: .empty, count: max(0, viewport.height - lines.count))
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension TerminalListRenderer {
    /// Applies `change` to the state and writes what it changed on screen, all under the
    /// lock; then reports the visible rows if they changed. While updates are coalesced
    /// (``coalescingUpdates(_:)``), only applies the change.
    ///
    /// - Parameters:
    ///   - plainFrame: in plain mode with `.everyBatch`, write a frame.
    ///   - forcePlainFrame: in plain mode, write a frame whatever the policy.
    func _update(plainFrame: Bool = false, forcePlainFrame: Bool = false, _ change: (inout _State) -> Void) {
        let report = _state.withLock { state -> (visible: Range<Int>, count: Int)? in
            change(&state)
            if case .plain(let policy) = state.mode, forcePlainFrame || (plainFrame && policy == .everyBatch) {
                state.isPlainFrameDue = true
            }
            guard state.coalescingDepth == 0 else { return nil }
            defer { state.isPlainFrameDue = false }
            switch state.mode {
            case _ where state.isClosed:
                break
            case .ansi:
                let frame = state._buildFrame(formatRow: _formatRow)
                var bytes: [UInt8] = []
                if let screen = state.screen {
                    let layout = state._layout
                    // A pinned section header stays where it is: only the lines below it scroll.
                    let pinned = state.viewport._showsHeaders ? 1 : 0
                    let listArea = (layout.headerRows + pinned)..<(layout.headerRows + layout.listRows)
                    _ScreenEncoder.update(from: screen, to: frame, scrollRegion: listArea, into: &bytes)
                } else {
                    _ScreenEncoder.fullRedraw(frame, into: &bytes)
                }
                state.screen = frame
                if !bytes.isEmpty {
                    _output.write(bytes)
                    state.framesWritten += 1
                }
            case .plain:
                if state.isPlainFrameDue {
                    _output.write(Array(state._plainFrame(formatRow: _formatRow).utf8))
                    state.framesWritten += 1
                }
            }
            let rows = (visible: state.viewport.visibleRows, count: state.viewport.count)
            if let last = state.lastReportedRows, last.visible == rows.visible && last.count == rows.count { return nil }
            state.lastReportedRows = rows
            return rows
        }
        if let report, let handler = _visibleRowsHandler.withLock({ $0 }) {
            handler(report.visible, report.count)
        }
    }

    /// A row's text without styles, trailing spaces removed.
    static func _text(of cells: [ScreenCell]) -> String {
        var text = ""
        for cell in cells where !cell.isContinuation { text += cell.text }
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// Where the header, list rows and status line go for a screen size.
struct _Layout {
    var headerRows: Int
    var listRows: Int
    var hasStatusLine: Bool

    /// A status line whenever there is a row; a header only with room for a list row too.
    init(size: TerminalSize, hasHeader: Bool) {
        hasStatusLine = size.rows >= 1
        headerRows = hasHeader && size.rows >= 3 ? 1 : 0
        listRows = max(0, size.rows - headerRows - (hasStatusLine ? 1 : 0))
    }
}

extension TerminalListRenderer._State {
    var _layout: _Layout { _Layout(size: size, hasHeader: header != nil) }

    mutating func _syncViewportHeight() {
        viewport.resize(height: _layout.listRows)
    }

    /// The full screen for the current state: `size.rows` rows of `size.columns` cells.
    ///
    /// Reads only the visible rows of the snapshot, and the sections in view.
    func _buildFrame(formatRow: TerminalListRenderer.RowFormatter) -> [[ScreenCell]] {
        let layout = _layout, columns = size.columns, colors = mode._colors
        var frame: [[ScreenCell]] = []
        frame.reserveCapacity(size.rows)
        if layout.headerRows > 0, let header {
            frame.append(_LineLayout.line(header, columns: columns, colors: colors))
        }
        let blank = [ScreenCell](repeating: .blank, count: columns)
        for line in viewport.lines {
            switch line {
            case .row(let offset):
                guard let snapshot = viewport.snapshot else { frame.append(blank); continue }
                let text = formatRow(snapshot[offset], offset)
                if offset == viewport.selection && mode._isANSI {
                    var cells = _LineLayout.cells(for: text, columns: columns, colors: colors)
                    for index in cells.indices { cells[index].style.isReversed = true }
                    frame.append(_LineLayout.padded(cells, to: columns, fill: ScreenCell(text: " ", style: TextStyle(isReversed: true))))
                } else {
                    frame.append(_LineLayout.line(text, columns: columns, colors: colors))
                }
            case .sectionHeader(let section, let rows):
                frame.append(_sectionHeader(section: section, rows: rows, columns: columns, colors: colors))
            case .trailingRow:
                if let trailingRow = status.trailingRow {
                    frame.append(_LineLayout.line(trailingRow, columns: columns, colors: colors))
                } else {
                    frame.append(blank)
                }
            case .empty:
                frame.append(blank)
            }
        }
        if layout.hasStatusLine {
            frame.append(_LineLayout.line(_statusText(), columns: columns, colors: colors, padding: _statusStyle))
        }
        return frame
    }

    var _statusStyle: TextStyle { mode._isANSI ? TextStyle(isReversed: true) : .plain }

    /// " v12 · 3/3,000 · loading… · ✗ page 4: HTTP 500 · sorted by score"
    func _statusText() -> StyledText {
        let bar = _statusStyle
        var text = StyledText(" v\(viewport.snapshot?.version ?? 0)", style: bar)
        if let place = _placeInSource() {
            text.append(place, style: bar)
        } else {
            let count = _grouped(viewport.count)
            if let selection = viewport.selection {
                text.append(" · \(_grouped(selection + 1))/\(count)", style: bar)
            } else {
                text.append(" · \(count) rows", style: bar)
            }
        }
        if status.isLoading {
            var loading = bar
            loading.isBold = true
            text.append(" · loading…", style: loading)
        }
        if let error = status.lastError {
            text.append(" · ", style: bar)
            var alert = bar
            alert.foreground = .red
            alert.isBold = true
            text.append("✗ \(error)", style: alert)
        }
        if let note = status.note {
            text.append(" · \(note)", style: bar)
        }
        return text
    }

    /// " · 1,253/1,000,000 · rows 1,201–2,200 of 1,000,000 loaded": the selection and
    /// the loaded rows counted in the source; `nil` without ``positionInSource`` or when
    /// it does not place the first, the last or the selected row.
    func _placeInSource() -> String? {
        guard let position = positionInSource, let snapshot = viewport.snapshot, let last = snapshot.last,
              let first = snapshot.first.flatMap(position), let end = position(last)
        else { return nil }
        let total = end.total.map(_grouped)
        var text = ""
        if let selection = viewport.selection {
            guard let selected = position(snapshot[selection]) else { return nil }
            text += " · \(_grouped(selected.offset + 1))" + (total.map { "/\($0)" } ?? "")
        }
        text += " · rows \(_grouped(first.offset + 1))–\(_grouped(end.offset + 1))" + (total.map { " of \($0)" } ?? "") + " loaded"
        return text
    }

    /// A plain-text frame: header, the visible lines (rows and section headers), the
    /// status line, an empty line.
    func _plainFrame(formatRow: TerminalListRenderer.RowFormatter) -> String {
        let frame = _buildFrame(formatRow: formatRow)
        let layout = _layout
        var lines: [String] = []
        if layout.headerRows > 0 { lines.append(TerminalListRenderer._text(of: frame[0])) }
        let shown = viewport.lines.prefix { $0 != .empty }.count
        for row in 0..<min(shown, layout.listRows) {
            lines.append(TerminalListRenderer._text(of: frame[layout.headerRows + row]))
        }
        if layout.hasStatusLine, let last = frame.last {
            lines.append(TerminalListRenderer._text(of: last).trimmingLeadingSpaces())
        }
        return lines.map { $0 + "\n" }.joined() + "\n"
    }
}

/// `1234567` as `"1,234,567"`.
func _grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

extension String {
    func trimmingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}

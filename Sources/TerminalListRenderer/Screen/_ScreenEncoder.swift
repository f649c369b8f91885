/// Turns screen contents into the bytes that draw them: in full, or as the difference
/// from what is already on the screen.
///
/// A frame is an array of rows, each exactly as many cells as the screen has columns.
/// Between calls the terminal is left in the default rendition, so each call starts from
/// a known state.
enum _ScreenEncoder {
    /// Clears the screen and draws every row of `frame`.
    ///
    /// - Complexity: O(*r* · *c*) for *r* rows of *c* columns.
    static func fullRedraw(_ frame: [[ScreenCell]], into bytes: inout [UInt8]) {
        bytes += _ControlSequence.resetStyle
        bytes += _ControlSequence.eraseScreen
        var current = TextStyle.plain
        for (row, cells) in frame.enumerated() {
            let end = _contentEnd(cells, from: 0)
            guard end > 0 else { continue }
            _ControlSequence.moveCursor(row: row, column: 0, into: &bytes)
            _appendCells(cells[0..<end], style: &current, into: &bytes)
        }
        if current != .plain { bytes += _ControlSequence.resetStyle }
    }

    /// Draws the rows of `new` that differ from `old`, each from its first to its last
    /// changed cell (cursor addressing, then the cells, then erase-to-end-of-line when
    /// the rest of the row became blank).
    ///
    /// When the rows of `scrollRegion` moved up or down together (the viewport scrolled,
    /// or rows were inserted or removed inside it), the terminal scrolls that region
    /// first, and only the rows that still differ are written.
    ///
    /// Unchanged rows cost nothing, so the bytes depend only on what changed on the
    /// screen, never on the size of the list behind it.
    /// - Precondition: `old` and `new` have the same dimensions.
    /// - Complexity: O(*r* · *c*) cell comparisons, plus O(*s*²) row hash comparisons
    ///   for a scroll region of *s* rows.
    static func update(from old: [[ScreenCell]], to new: [[ScreenCell]], scrollRegion: Range<Int>? = nil, into bytes: inout [UInt8]) {
        precondition(old.count == new.count, "screen update between frames of \(old.count) and \(new.count) rows")
        var old = old
        if let scrollRegion {
            _scrollIfCheaper(&old, to: new, region: scrollRegion, into: &bytes)
        }
        var current = TextStyle.plain
        for row in new.indices {
            precondition(old[row].count == new[row].count, "screen update between rows of \(old[row].count) and \(new[row].count) columns")
            guard let span = changedColumns(from: old[row], to: new[row]) else { continue }
            _ControlSequence.moveCursor(row: row, column: span.lowerBound, into: &bytes)
            let cells = new[row]
            guard span.upperBound == cells.count else {
                _appendCells(cells[span], style: &current, into: &bytes)
                continue
            }
            let end = _contentEnd(cells, from: span.lowerBound)
            _appendCells(cells[span.lowerBound..<end], style: &current, into: &bytes)
            if end < cells.count && _contentEnd(old[row], from: end) > end {
                if current != .plain {
                    bytes += _ControlSequence.resetStyle
                    current = .plain
                }
                bytes += _ControlSequence.eraseToEndOfLine
            }
        }
        if current != .plain { bytes += _ControlSequence.resetStyle }
    }

    /// The columns of a row to rewrite to turn `old` into `new`, or `nil` if they are equal.
    ///
    /// The span runs from the first to the last differing cell, widened so that it
    /// never starts or ends inside a wide character. Because a terminal may measure an
    /// emoji sequence differently (``DisplayWidth/isAmbiguous(_:)``), the span starts
    /// at column 0 when such a cell precedes it, and runs to the end of the row when
    /// one is inside it: the cursor is then never placed by counting past such a cell.
    static func changedColumns(from old: [ScreenCell], to new: [ScreenCell]) -> Range<Int>? {
        guard var start = new.indices.first(where: { old[$0] != new[$0] }),
              var end = new.indices.last(where: { old[$0] != new[$0] }).map({ $0 + 1 })
        else { return nil }
        while start > 0 && (new[start].isContinuation || old[start].isContinuation) { start -= 1 }
        while end < new.count && (new[end].isContinuation || old[end].isContinuation) { end += 1 }
        if new[0..<start].contains(where: \._isAmbiguous) { start = 0 }
        if new[start..<end].contains(where: \._isAmbiguous) || old[start..<end].contains(where: \._isAmbiguous) {
            end = new.count
        }
        return start..<end
    }

    /// The column after the last cell at or after `start` that is not a default blank.
    static func _contentEnd(_ cells: [ScreenCell], from start: Int) -> Int {
        var end = cells.count
        while end > start && cells[end - 1] == .blank { end -= 1 }
        return end
    }

    static func _appendCells(_ cells: ArraySlice<ScreenCell>, style current: inout TextStyle, into bytes: inout [UInt8]) {
        for cell in cells where !cell.isContinuation {
            if cell.style != current {
                _ControlSequence.setStyle(cell.style, into: &bytes)
                current = cell.style
            }
            bytes += cell.text.utf8
        }
    }
}

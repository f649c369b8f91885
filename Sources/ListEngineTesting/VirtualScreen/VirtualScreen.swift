import TerminalListRenderer

/// A model terminal: interprets the escape sequences the renderer emits into a grid of cells.
///
/// Feed it the bytes a `TerminalListRenderer` (or `TerminalSession`) writes and read
/// back what a terminal would show. This is how the tests check that applying batches
/// incrementally gives the same screen as drawing the final list from scratch.
///
/// ```swift
/// var screen = VirtualScreen(rows: 5, columns: 20)
/// screen.feed(Array("\u{1B}[2;3HHi\u{1B}[1;31m!".utf8))
/// screen.text(ofRow: 1)   // "  Hi!"
/// ```
///
/// It understands: printable UTF-8 text (grapheme clusters, wide characters, zero-width
/// characters joining the previous cell), CR and LF, cursor position (CSI *r*;*c* H),
/// erase in line (CSI K, 1 K, 2 K), erase in display (CSI J, 2 J), scroll region
/// (DECSTBM, CSI *t*;*b* r and CSI r), scroll up and down (CSI *n* S, CSI *n* T), SGR
/// (CSI … m: reset, bold, faint, underline, reverse, the sixteen colours and defaults),
/// and the DEC private modes 1049 (alternate screen), 25 (cursor visibility) and 7
/// (autowrap).
/// Anything else, and text written past the right margin, is recorded in
/// ``anomalies`` — the renderer never produces those.
public struct VirtualScreen: Sendable, CustomStringConvertible {
    /// A cursor position, 0-based.
    public struct Position: Hashable, Sendable {
        /// The row, from 0 at the top.
        public var row: Int
        /// The column, from 0 at the left margin.
        public var column: Int

        /// Creates a position.
        ///
        /// - Parameters:
        ///   - row: the row, from 0 at the top.
        ///   - column: the column, from 0 at the left margin.
        /// - Complexity: O(1).
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// The number of rows.
    public internal(set) var rows: Int
    /// The number of columns.
    public internal(set) var columns: Int
    /// The cells of the active screen, `rows` arrays of `columns` cells.
    public internal(set) var cells: [[ScreenCell]]
    /// Where the next character goes.
    public internal(set) var cursor = Position(row: 0, column: 0)
    /// The rendition applied to written text and erased cells' background.
    public internal(set) var style = TextStyle.plain
    /// Whether the alternate screen is active (between CSI ? 1049 h and l).
    public internal(set) var isAlternateScreenActive = false
    /// Whether the cursor is shown.
    public internal(set) var isCursorVisible = true
    /// Whether text wraps at the right margin.
    public internal(set) var isAutowrapEnabled = true
    /// The rows that scroll (DECSTBM): the whole screen unless a region is set.
    public internal(set) var scrollRegion: Range<Int>
    /// Sequences not understood and text written past the right margin, in order.
    public internal(set) var anomalies: [String] = []

    /// The main screen's cells and cursor while the alternate screen is active.
    var savedMainScreen: (cells: [[ScreenCell]], cursor: Position)?
    var _parser = _Parser()

    /// Creates a blank screen.
    ///
    /// The cursor is at the top left, the style plain, the whole screen scrolls.
    ///
    /// - Parameters:
    ///   - rows: the number of rows, not negative.
    ///   - columns: the number of columns, not negative.
    /// - Complexity: O(*r* · *c*) for *r* rows of *c* columns.
    public init(rows: Int, columns: Int) {
        precondition(rows >= 0 && columns >= 0, "screen size \(columns)×\(rows) is negative")
        self.rows = rows
        self.columns = columns
        self.cells = Self._blankGrid(rows: rows, columns: columns, style: .plain)
        self.scrollRegion = 0..<rows
    }

    /// Changes the size, keeping the top-left cells (a renderer redraws after a resize).
    ///
    /// A wide character cut in half at the new right margin becomes a blank. The scroll
    /// region is reset to the whole screen, the cursor is kept on it, and a saved main
    /// screen is dropped.
    ///
    /// - Parameters:
    ///   - newRows: the new number of rows, not negative.
    ///   - newColumns: the new number of columns, not negative.
    /// - Complexity: O(*r* · *c*) for the new *r* rows of *c* columns.
    public mutating func resize(rows newRows: Int, columns newColumns: Int) {
        precondition(newRows >= 0 && newColumns >= 0, "screen size \(newColumns)×\(newRows) is negative")
        var grid = Self._blankGrid(rows: newRows, columns: newColumns, style: .plain)
        for row in 0..<min(rows, newRows) {
            for column in 0..<min(columns, newColumns) { grid[row][column] = cells[row][column] }
            if newColumns < columns, newColumns > 0, grid[row][newColumns - 1].width == 2 {
                grid[row][newColumns - 1] = .blank
            }
        }
        rows = newRows
        columns = newColumns
        cells = grid
        scrollRegion = 0..<newRows
        savedMainScreen = nil
        cursor = Position(row: min(cursor.row, max(0, rows - 1)), column: min(cursor.column, max(0, columns - 1)))
        _checkInvariants()
    }

    /// The text of a row: its cells' text, trailing spaces removed.
    ///
    /// - Parameter row: a row in `0..<rows`.
    /// - Returns: what the row shows, without styles.
    /// - Complexity: O(*c*) for *c* columns.
    public func text(ofRow row: Int) -> String {
        var text = ""
        for cell in cells[row] where !cell.isContinuation { text += cell.text }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The text of every row.
    ///
    /// - Complexity: O(*r* · *c*) for *r* rows of *c* columns.
    public var textLines: [String] { (0..<rows).map(text(ofRow:)) }

    /// The rows as text, one per line.
    ///
    /// - Complexity: O(*r* · *c*) for *r* rows of *c* columns.
    public var description: String { textLines.joined(separator: "\n") }

    /// Traps unless the grid is `rows` × `columns`, every continuation cell follows a
    /// wide cell in the same style, every wide cell is followed by one, and the cursor is
    /// on the screen. Does work only with `LIST_INTERNAL_CHECKS`.
    func _checkInvariants() {
        #if LIST_INTERNAL_CHECKS
        precondition(cells.count == rows, "\(cells.count) rows of cells for a screen of \(rows)")
        for (row, line) in cells.enumerated() {
            precondition(line.count == columns, "row \(row) has \(line.count) cells for \(columns) columns")
            for (column, cell) in line.enumerated() where cell.width == 2 {
                precondition(column + 1 < columns && line[column + 1].isContinuation, "wide cell at \(row),\(column) without its right half")
            }
            for (column, cell) in line.enumerated() where cell.isContinuation {
                precondition(column > 0 && line[column - 1].width == 2, "right half at \(row),\(column) without a wide cell")
            }
        }
        precondition(rows == 0 || (cursor.row < rows && cursor.column <= columns), "cursor \(cursor) off a \(columns)×\(rows) screen")
        precondition(scrollRegion.lowerBound >= 0 && scrollRegion.upperBound <= rows, "scroll region \(scrollRegion) off \(rows) rows")
        #endif
    }

    static func _blankGrid(rows: Int, columns: Int, style: TextStyle) -> [[ScreenCell]] {
        let blank = ScreenCell(text: " ", style: TextStyle(background: style.background))
        return Array(repeating: Array(repeating: blank, count: columns), count: rows)
    }
}

// MARK: - Screen operations

extension VirtualScreen {
    /// Writes one grapheme cluster at the cursor.
    mutating func _put(_ character: Character) {
        guard rows > 0 && columns > 0 else { return }
        let width = DisplayWidth.of(character)
        if width == 0 {
            _attachToPreviousCell(String(character))
            return
        }
        if cursor.column + width > columns {
            anomalies.append("text \"\(character)\" past the right margin at row \(cursor.row)")
            guard isAutowrapEnabled else { return }
            cursor.column = 0
            _lineFeed()
        }
        let row = cursor.row, column = cursor.column
        _clearWideCharacter(at: row, column)
        if width == 2 { _clearWideCharacter(at: row, column + 1) }
        cells[row][column] = ScreenCell(text: String(character), style: style, width: width)
        if width == 2 { cells[row][column + 1] = .continuation(style) }
        cursor.column += width
    }

    /// Makes the cell at a position free to overwrite: if it is half of a wide
    /// character, the other half becomes a blank, as terminals do.
    mutating func _clearWideCharacter(at row: Int, _ column: Int) {
        guard column < columns else { return }
        let cell = cells[row][column]
        if cell.isContinuation && column > 0 {
            cells[row][column - 1] = _erased
        } else if cell.width == 2 && column + 1 < columns {
            cells[row][column + 1] = _erased
        }
    }

    mutating func _attachToPreviousCell(_ text: String) {
        var column = cursor.column - 1
        guard column >= 0 else {
            anomalies.append("zero-width text at the start of row \(cursor.row)")
            return
        }
        if cells[cursor.row][column].isContinuation && column > 0 { column -= 1 }
        cells[cursor.row][column].text += text
    }

    /// What an erased cell holds: a space with the current background.
    var _erased: ScreenCell { ScreenCell(text: " ", style: TextStyle(background: style.background)) }

    mutating func _lineFeed() {
        if cursor.row + 1 == scrollRegion.upperBound {
            _scroll(by: 1)
        } else if cursor.row + 1 < rows {
            cursor.row += 1
        }
    }

    /// Scrolls the scroll region up by `lines` (down when negative); blank rows with the
    /// current background come in.
    mutating func _scroll(by lines: Int) {
        let region = scrollRegion
        guard !region.isEmpty else { return }
        let count = min(abs(lines), region.count)
        let blank = Array(repeating: _erased, count: columns)
        if lines > 0 {
            cells.removeSubrange(region.lowerBound..<(region.lowerBound + count))
            cells.insert(contentsOf: Array(repeating: blank, count: count), at: region.upperBound - count)
        } else {
            cells.removeSubrange((region.upperBound - count)..<region.upperBound)
            cells.insert(contentsOf: Array(repeating: blank, count: count), at: region.lowerBound)
        }
    }

    /// DECSTBM: rows `top` through `bottom` (1-based, inclusive) scroll; the cursor goes
    /// home. An empty or inverted region is ignored, as terminals do.
    mutating func _setScrollRegion(top: Int, bottom: Int) {
        let first = max(1, top), last = min(rows, bottom)
        guard first < last else {
            anomalies.append("scroll region \(top);\(bottom) on \(rows) rows")
            return
        }
        scrollRegion = (first - 1)..<last
        cursor = Position(row: 0, column: 0)
    }

    mutating func _eraseLine(from start: Int, to end: Int) {
        guard rows > 0 else { return }
        let row = cursor.row
        let from = max(0, start), to = min(columns, end)
        guard from < to else { return }
        _clearWideCharacter(at: row, from)
        if to < columns { _clearWideCharacter(at: row, to) }
        for column in from..<to { cells[row][column] = _erased }
    }

    mutating func _eraseDisplay(_ mode: Int) {
        switch mode {
        case 2, 3:
            cells = Self._blankGrid(rows: rows, columns: columns, style: style)
        case 0:
            _eraseLine(from: cursor.column, to: columns)
            for row in (cursor.row + 1)..<max(cursor.row + 1, rows) {
                cells[row] = Array(repeating: _erased, count: columns)
            }
        case 1:
            _eraseLine(from: 0, to: cursor.column + 1)
            for row in 0..<cursor.row { cells[row] = Array(repeating: _erased, count: columns) }
        default:
            anomalies.append("erase in display with parameter \(mode)")
        }
    }

    mutating func _setPrivateMode(_ mode: Int, on: Bool) {
        switch mode {
        case 1049:
            if on && !isAlternateScreenActive {
                savedMainScreen = (cells, cursor)
                cells = Self._blankGrid(rows: rows, columns: columns, style: .plain)
                isAlternateScreenActive = true
            } else if !on && isAlternateScreenActive {
                if let saved = savedMainScreen, saved.cells.count == rows, saved.cells.first?.count ?? 0 == columns {
                    cells = saved.cells
                    cursor = saved.cursor
                } else {
                    cells = Self._blankGrid(rows: rows, columns: columns, style: .plain)
                }
                savedMainScreen = nil
                isAlternateScreenActive = false
            }
        case 25: isCursorVisible = on
        case 7: isAutowrapEnabled = on
        default: anomalies.append("private mode \(mode) \(on ? "set" : "reset")")
        }
    }

    mutating func _moveCursor(row: Int, column: Int) {
        cursor = Position(row: min(max(0, row), max(0, rows - 1)), column: min(max(0, column), max(0, columns - 1)))
    }

    mutating func _setGraphicRendition(_ parameters: [Int]) {
        for parameter in parameters.isEmpty ? [0] : parameters {
            switch parameter {
            case 0: style = .plain
            case 1: style.isBold = true
            case 2: style.isDim = true
            case 4: style.isUnderlined = true
            case 7: style.isReversed = true
            case 22: style.isBold = false; style.isDim = false
            case 24: style.isUnderlined = false
            case 27: style.isReversed = false
            case 30...37: style.foreground = TerminalColor(rawValue: UInt8(parameter - 30))
            case 39: style.foreground = nil
            case 40...47: style.background = TerminalColor(rawValue: UInt8(parameter - 40))
            case 49: style.background = nil
            case 90...97: style.foreground = TerminalColor(rawValue: UInt8(parameter - 90 + 8))
            case 100...107: style.background = TerminalColor(rawValue: UInt8(parameter - 100 + 8))
            default: anomalies.append("SGR parameter \(parameter)")
            }
        }
    }
}

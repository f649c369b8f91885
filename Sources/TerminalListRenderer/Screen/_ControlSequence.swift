/// The escape sequences the renderer and ``TerminalSession`` emit, and nothing else.
///
/// All are ECMA-48 / DEC VT sequences every terminal in use understands. `VirtualScreen`
/// interprets exactly this set.
enum _ControlSequence {
    /// CSI r ; c H — cursor position, from 0-based `row` and `column`.
    static func moveCursor(row: Int, column: Int, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0x1B, 0x5B])
        _appendDecimal(row + 1, to: &bytes)
        bytes.append(0x3B)
        _appendDecimal(column + 1, to: &bytes)
        bytes.append(0x48)
    }

    /// CSI 0 ; … m — select graphic rendition, starting from a reset.
    static func setStyle(_ style: TextStyle, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0x1B, 0x5B])
        for (index, parameter) in style._sgrParameters.enumerated() {
            if index > 0 { bytes.append(0x3B) }
            _appendDecimal(parameter, to: &bytes)
        }
        bytes.append(0x6D)
    }

    /// CSI t ; b r — scroll region (DECSTBM) over the 0-based rows `rows`; the cursor
    /// goes to the home position.
    static func setScrollRegion(_ rows: Range<Int>, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0x1B, 0x5B])
        _appendDecimal(rows.lowerBound + 1, to: &bytes)
        bytes.append(0x3B)
        _appendDecimal(rows.upperBound, to: &bytes)
        bytes.append(0x72)
    }

    /// CSI n S (scroll up, SU) for a positive `lines`, CSI n T (scroll down, SD) for a
    /// negative one: the scroll region's rows move, blank rows come in.
    static func scroll(by lines: Int, into bytes: inout [UInt8]) {
        precondition(lines != 0, "scrolling by 0 lines")
        bytes.append(contentsOf: [0x1B, 0x5B])
        _appendDecimal(lines > 0 ? lines : -lines, to: &bytes)
        bytes.append(lines > 0 ? 0x53 : 0x54)
    }

    /// CSI r — the scroll region back to the whole screen; the cursor goes home.
    static let resetScrollRegion: [UInt8] = Array("\u{1B}[r".utf8)

    /// CSI K — erase from the cursor to the end of the line.
    static let eraseToEndOfLine: [UInt8] = Array("\u{1B}[K".utf8)
    /// CSI 2 J — erase the whole screen (the cursor does not move).
    static let eraseScreen: [UInt8] = Array("\u{1B}[2J".utf8)
    /// CSI 0 m — default rendition.
    static let resetStyle: [UInt8] = Array("\u{1B}[0m".utf8)
    /// CSI ? 1049 h / l — switch to the alternate screen (saving the cursor) and back.
    static let enterAlternateScreen: [UInt8] = Array("\u{1B}[?1049h".utf8)
    static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)
    /// CSI ? 25 l / h — hide and show the cursor.
    static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// CSI ? 7 l / h — autowrap off and on. Off while drawing, so a row that a terminal
    /// measures wider than the renderer did is clipped instead of wrapping onto the next.
    static let disableAutowrap: [UInt8] = Array("\u{1B}[?7l".utf8)
    static let enableAutowrap: [UInt8] = Array("\u{1B}[?7h".utf8)

    static func _appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        precondition(value >= 0, "negative parameter \(value) in a control sequence")
        if value >= 10 { _appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(0x30 + value % 10))
    }
}

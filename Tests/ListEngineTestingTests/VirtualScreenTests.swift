import ListEngineTesting
import TerminalListRenderer
import Testing

@Suite struct VirtualScreenTests {
    private func screen(_ text: String, rows: Int = 3, columns: Int = 10) -> VirtualScreen {
        var screen = VirtualScreen(rows: rows, columns: columns)
        screen.feed(text)
        return screen
    }

    @Test func textGoesWhereTheCursorIs() {
        let result = screen("\u{1B}[2;3HHi\u{1B}[1;1Hx")
        #expect(result.textLines == ["x", "  Hi", ""])
        #expect(result.cursor == .init(row: 0, column: 1))
        #expect(result.anomalies.isEmpty)
    }

    @Test func cursorPositionIsClampedAndDefaultsToHome() {
        var result = screen("\u{1B}[99;99H")
        #expect(result.cursor == .init(row: 2, column: 9))
        result.feed("\u{1B}[H")
        #expect(result.cursor == .init(row: 0, column: 0))
        result.feed("\u{1B}[;5H")
        #expect(result.cursor == .init(row: 0, column: 4))
    }

    @Test func eraseInLine() {
        var result = screen("abcdefgh\u{1B}[1;4H\u{1B}[K")
        #expect(result.text(ofRow: 0) == "abc")
        result.feed("\u{1B}[1;1Habcdefgh\u{1B}[1;4H\u{1B}[1K")
        #expect(result.text(ofRow: 0) == "    efgh")
        result.feed("\u{1B}[2K")
        #expect(result.text(ofRow: 0) == "")
        #expect(result.anomalies.isEmpty)
    }

    @Test func eraseDisplayClearsEverything() {
        let result = screen("abc\u{1B}[2;1Hdef\u{1B}[2J")
        #expect(result.textLines == ["", "", ""])
        #expect(result.cursor == .init(row: 1, column: 3))
    }

    @Test func graphicRenditionStylesCells() {
        let result = screen("a\u{1B}[0;1;7;31;44mb\u{1B}[0mc\u{1B}[92;103md\u{1B}[22;27;39;49me")
        #expect(result.cells[0][0].style == .plain)
        #expect(result.cells[0][1].style == TextStyle(foreground: .red, background: .blue, isBold: true, isReversed: true))
        #expect(result.cells[0][2].style == .plain)
        #expect(result.cells[0][3].style == TextStyle(foreground: .brightGreen, background: .brightYellow))
        #expect(result.cells[0][4].style == .plain)
        #expect(result.anomalies.isEmpty)
    }

    @Test func erasedCellsTakeTheCurrentBackground() {
        let result = screen("\u{1B}[44m\u{1B}[K")
        #expect(result.cells[0][5].style == TextStyle(background: .blue))
    }

    @Test func wideCharactersTakeTwoCells() {
        let result = screen("王a🦊")
        #expect(result.cells[0].prefix(5).map(\.text) == ["王", "", "a", "🦊", ""])
        #expect(result.cursor.column == 5)
        #expect(result.text(ofRow: 0) == "王a🦊")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var result = screen("王王")
        result.feed("\u{1B}[1;2Hx")
        #expect(result.cells[0].prefix(4).map(\.text) == [" ", "x", "王", ""])
        result.feed("\u{1B}[1;3Hy")
        #expect(result.cells[0].prefix(4).map(\.text) == [" ", "x", "y", " "])
    }

    @Test func zeroWidthCharactersAttachToThePreviousCell() {
        let result = screen("e\u{1B}[1m\u{301}")
        #expect(result.cells[0][0].text == "e\u{301}")
        #expect(result.cursor.column == 1)
    }

    @Test func writingPastTheRightMarginIsAnAnomaly() {
        var result = screen("\u{1B}[?7labcd", rows: 1, columns: 3)
        #expect(result.text(ofRow: 0) == "abc")
        #expect(result.anomalies.count == 1)
        result = screen("abcd", rows: 2, columns: 3)
        #expect(result.textLines == ["abc", "d"])
        #expect(result.anomalies.count == 1)
        result = screen("ab王", rows: 1, columns: 3)
        #expect(result.anomalies.count == 1)
    }

    @Test func privateModes() {
        var result = screen("main\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l")
        #expect(result.isAlternateScreenActive)
        #expect(!result.isCursorVisible)
        #expect(!result.isAutowrapEnabled)
        #expect(result.text(ofRow: 0) == "")
        result.feed("alt\u{1B}[?1049l\u{1B}[?25h\u{1B}[?7h")
        #expect(!result.isAlternateScreenActive)
        #expect(result.isCursorVisible)
        #expect(result.isAutowrapEnabled)
        #expect(result.text(ofRow: 0) == "main")
        #expect(result.anomalies.isEmpty)
    }

    @Test func unknownSequencesAndControlsAreRecorded() {
        let result = screen("\u{1B}[5A\u{1B}]0;title\u{7}\u{1B}[?1000h\u{1B}[38;5;1m\u{7}")
        #expect(result.anomalies.count == 7, "\(result.anomalies)")
    }

    @Test func scrollRegionScrollsOnlyItsRows() {
        var result = screen("a\u{1B}[2;1Hb\u{1B}[3;1Hc\u{1B}[4;1Hd", rows: 4, columns: 3)
        result.feed("\u{1B}[2;3r")
        #expect(result.scrollRegion == 1..<3)
        #expect(result.cursor == .init(row: 0, column: 0))
        result.feed("\u{1B}[1S")
        #expect(result.textLines == ["a", "c", "", "d"])
        result.feed("\u{1B}[T")
        #expect(result.textLines == ["a", "", "c", "d"])
        result.feed("\u{1B}[r\u{1B}[2T")
        #expect(result.scrollRegion == 0..<4)
        #expect(result.textLines == ["", "", "a", ""])
        result.feed("\u{1B}[9S")
        #expect(result.textLines == ["", "", "", ""])
        #expect(result.anomalies.isEmpty)
        result.feed("\u{1B}[3;2r")
        #expect(result.anomalies.count == 1, "an inverted region is ignored and recorded")
        #expect(result.scrollRegion == 0..<4)
    }

    @Test func lineFeedAtTheBottomOfTheScrollRegionScrollsIt() {
        let result = screen("top\u{1B}[2;3r\u{1B}[3;1Hx\ny\u{1B}[4;1Hend", rows: 4, columns: 5)
        #expect(result.textLines == ["top", "x", "y", "end"])
    }

    @Test func lineFeedAndCarriageReturn() {
        let result = screen("ab\ncd\rX\n\nlast\nscrolled")
        #expect(result.textLines == ["", "last", "scrolled"])
    }

    @Test func resizeKeepsTheTopLeftCells() {
        var result = screen("abc\u{1B}[2;1Hdef")
        result.resize(rows: 1, columns: 2)
        #expect(result.textLines == ["ab"])
        result.resize(rows: 2, columns: 4)
        #expect(result.textLines == ["ab", ""])
        var wide = screen("a王", rows: 1, columns: 4)
        wide.resize(rows: 1, columns: 2)
        #expect(wide.cells[0].map(\.text) == ["a", " "])
    }

    @Test func sameTextSplitIntoManyFeedsGivesTheSameScreen() {
        let text = "\u{1B}[1;1H王\u{1B}[1mKai 🦊\u{1B}[0m\u{1B}[2;3H👩‍💻 x\u{1B}[K"
        let whole = screen(text)
        var pieces = VirtualScreen(rows: 3, columns: 10)
        // Feeding at escape boundaries is how the renderer writes.
        for piece in text.split(separator: "\u{1B}", omittingEmptySubsequences: true) {
            pieces.feed("\u{1B}" + piece)
        }
        #expect(pieces.cells == whole.cells)
    }
}

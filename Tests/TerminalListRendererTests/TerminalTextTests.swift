import ListTestSupport
import Testing
@testable import TerminalListRenderer

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownNotSent() {
        #expect(TerminalText.escapingControlCharacters("a\u{1B}[2Jb") == "a^[[2Jb")
        #expect(TerminalText.escapingControlCharacters("\u{0}\u{7}\t\n\r") == "^@^G^I^J^M")
        #expect(TerminalText.escapingControlCharacters("del\u{7F}") == "del^?")
        #expect(TerminalText.escapingControlCharacters("csi\u{9B}31m") == "csi\\u{9B}31m")
        #expect(TerminalText.escapingControlCharacters("\u{85}") == "\\u{85}")
        #expect(TerminalText.escapingControlCharacters("abc\u{202E}cba") == "abc\\u{202E}cba")
        #expect(TerminalText.escapingControlCharacters("line\u{2028}break") == "line\\u{2028}break")
    }

    @Test func textWithoutControlsIsUnchanged() {
        for text in ["", "plain", "Zoë", "王小明", "👩‍💻 Dana", "<b>Bold</b> & \"Quoted\"", "e\u{301}"] {
            #expect(TerminalText.escapingControlCharacters(text) == text)
        }
    }

    @Test func escapedTextHasNoBytesATerminalWouldInterpret() {
        var rng = SplitMix64(seed: 0x1234_5678)
        for _ in 0..<2000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<8 {
                let value = rng.chance(0.1) ? UInt32(rng.int(in: 0x2000..<0x2100)) : UInt32(rng.int(in: 0..<0x300))
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            let escaped = TerminalText.escapingControlCharacters(String(scalars))
            #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) })
        }
    }

    @Test func truncationRespectsDisplayWidth() {
        #expect(TerminalText.truncated("short", toWidth: 10) == "short")
        #expect(TerminalText.truncated("exactly10!", toWidth: 10) == "exactly10!")
        #expect(TerminalText.truncated("exactly 11!", toWidth: 10) == "exactly 1…")
        #expect(TerminalText.truncated("王小明 wins", toWidth: 5) == "王小…")
        #expect(TerminalText.truncated("王小明 wins", toWidth: 6) == "王小…")
        #expect(TerminalText.truncated("王小明", toWidth: 6) == "王小明")
        #expect(TerminalText.truncated("👩‍💻 Dana and more", toWidth: 4) == "👩‍💻 …")
        #expect(TerminalText.truncated("🦊🦊🦊", toWidth: 3) == "🦊…")
        #expect(TerminalText.truncated("abc", toWidth: 0) == "")
        #expect(TerminalText.truncated("abc", toWidth: 1) == "…")
        #expect(TerminalText.truncated("abcdef", toWidth: 3, ellipsis: "") == "abc")
        #expect(TerminalText.truncated("a\u{1B}b", toWidth: 3) == "a^…")
    }

    @Test func truncatedTextNeverExceedsTheWidth() {
        let samples = ["王小明", "Kai 🦊", "👩‍💻 Dana", "Zoë", "a\u{1B}[31m", "🇸🇪🇳🇴", "e\u{301}e\u{301}", "ｆｕｌｌ"]
        for sample in samples {
            for width in 0..<12 {
                let cut = TerminalText.truncated(sample + sample, toWidth: width)
                #expect(DisplayWidth.of(cut) <= width, "\(sample) at \(width): \(cut)")
            }
        }
    }

    @Test func lineLayoutPutsWideCharactersInTwoCells() {
        let cells = _LineLayout.cells(for: "a王b", columns: 10)
        #expect(cells.map(\.text) == ["a", "王", "", "b"])
        #expect(cells.map(\.width) == [1, 2, 0, 1])
    }

    @Test func zeroWidthCharactersJoinThePreviousCell() {
        let cells = _LineLayout.cells(for: "a\u{200B}b", columns: 10)
        #expect(cells.map(\.text) == ["a\u{200B}", "b"])
        let leading = _LineLayout.cells(for: "\u{301}x", columns: 10)
        #expect(leading.map(\.text) == ["\u{25CC}\u{301}", "x"])
    }

    @Test func prependingMarksAtTheEndAreEscapedSoTheyCannotJoinWhatFollows() {
        // U+0600 and U+0D4E join the character after them into one cluster: left at the
        // end of a text, they would swallow the padding or the next update's first cell.
        #expect(_LineLayout.cells(for: "x\u{0D4E}", columns: 12).map(\.text) == Array("x\\u{D4E}").map(String.init))
        #expect(_LineLayout.cells(for: "x\u{0600}\u{0601}", columns: 20).map(\.text) == Array("x\\u{600}\\u{601}").map(String.init))
        // Inside a text they join the next character, as every reading of the line does.
        #expect(_LineLayout.cells(for: "\u{0600}1 ", columns: 12).map(\.text) == ["\u{0600}1", " "])
        for text in ["x\u{0D4E}", "a\u{0600}", "\u{110BD}", "王\u{111C2}"] {
            let cells = _LineLayout.line(StyledText(text), columns: 12, colors: false)
            #expect(cells.count == 12)
            // The line, written out and read back, splits into the same cells.
            let written = cells.filter { !$0.isContinuation }.map(\.text).joined()
            #expect(written.count == cells.filter { !$0.isContinuation }.count, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func clustersAcrossSpansBecomeOneCellInTheFirstStyle() {
        let bold = TextStyle(isBold: true)
        let text = StyledText("🇸", style: bold) + StyledText("🇪x")
        let cells = _LineLayout.cells(for: text, columns: 10)
        #expect(cells.map(\.text) == ["🇸🇪", "", "x"])
        #expect(cells[0].style == bold)
        #expect(cells[2].style == .plain)
    }

    @Test func noColorDropsColoursButKeepsAttributes() {
        let style = TextStyle(foreground: .red, background: .blue, isBold: true, isReversed: true)
        let cells = _LineLayout.cells(for: StyledText("x", style: style), columns: 3, colors: false)
        #expect(cells[0].style == TextStyle(isBold: true, isReversed: true))
    }
}

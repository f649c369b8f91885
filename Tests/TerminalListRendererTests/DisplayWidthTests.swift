import Testing
@testable import TerminalListRenderer

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), (" ", 1), ("~", 1), ("ë", 1), ("ß", 1), ("Ł", 1),
        ("王", 2), ("佐", 2), ("김", 2), ("カ", 2), ("Ａ", 2), ("、", 2),
        ("🦊", 2), ("👩‍💻", 2), ("🇸🇪", 2), ("❤️", 2), ("1️⃣", 2), ("👍🏽", 2),
        ("☺", 1), ("⌚︎", 1), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0),
        ("\u{1B}", 0), ("\u{9B}", 0), ("\u{AD}", 1), ("…", 1), ("·", 1),
        // Marks inside East Asian wide blocks take no column, as terminals give them none.
        ("\u{3099}", 0), ("\u{302A}", 0), ("\u{16FE4}", 0), ("カ\u{3099}", 2),
        // A prepending mark is measured by the character it prepends to.
        ("\u{0600}1", 1), ("\u{0600}", 0), ("\u{0D4E}", 1),
    ] as [(String, Int)])
    func widthOfOneCharacter(text: String, expected: Int) {
        let character = try! #require(text.count == 1 ? text.first : nil)
        #expect(DisplayWidth.of(character) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func widthOfStringsIsTheSumOverClusters() {
        #expect(DisplayWidth.of("Kai 🦊") == 6)
        #expect(DisplayWidth.of("王小明") == 6)
        #expect(DisplayWidth.of("👩‍💻 Dana") == 7)
        #expect(DisplayWidth.of("Zoë Lindqvist") == 13)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func wideRangesAreSortedAndDisjoint() {
        let ranges = DisplayWidth._wideRanges
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            #expect(previous.upperBound < next.lowerBound, "\(previous) overlaps \(next)")
        }
        #expect(DisplayWidth._isEastAsianWide(0x4E00))
        #expect(DisplayWidth._isEastAsianWide(0x9FFF))
        #expect(!DisplayWidth._isEastAsianWide(0x303F))
        #expect(!DisplayWidth._isEastAsianWide(0x10FFFF))
    }

    @Test func sequencesThatTerminalsMeasureDifferentlyAreAmbiguous() {
        #expect(DisplayWidth.isAmbiguous("👩‍💻"))
        #expect(DisplayWidth.isAmbiguous("🇸🇪"))
        #expect(DisplayWidth.isAmbiguous("❤️"))
        #expect(DisplayWidth.isAmbiguous("👍🏽"))
        #expect(DisplayWidth.isAmbiguous("\u{915}\u{93F}"))  // कि: KA and a spacing vowel sign
        #expect(DisplayWidth.of("\u{915}\u{93F}" as Character) == 1)
        #expect(!DisplayWidth.isAmbiguous("e\u{301}"))
        #expect(!DisplayWidth.isAmbiguous("王"))
        #expect(!DisplayWidth.isAmbiguous("🦊"))
    }
}

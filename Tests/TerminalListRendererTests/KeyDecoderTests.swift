import Testing
import TerminalListRenderer

@Suite struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.keys(in: Array(text.utf8))
    }

    @Test func arrowsAndNavigationKeys() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB") == [.up, .down])
        #expect(keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.home, .end, .home, .end, .home, .end])
        #expect(keys("\u{1B}[1;5A\u{1B}[3~") == [.up, .delete])
    }

    @Test func charactersAndControls() {
        #expect(keys("jkq") == [.character("j"), .character("k"), .character("q")])
        #expect(keys("\u{3}\r\t\u{7F}") == [.control("c"), .enter, .tab, .backspace])
        #expect(keys("ö王🦊") == [.character("ö"), .character("王"), .character("🦊")])
    }

    @Test func loneEscapeAtTheEndOfAReadIsTheEscapeKey() {
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test func sequenceSplitAcrossFeedsIsStillOneKey() {
        var decoder = KeyDecoder()
        var result: [Key] = []
        for byte in Array("\u{1B}[6~".utf8) { result += decoder.feed(byte) }
        #expect(result == [.pageDown])
    }

    /// Bytes of one key that arrive in two reads (a slow connection).
    @Test(arguments: [
        ("\u{1B}[", "B", [Key.down]),
        ("\u{1B}[6", "~", [.pageDown]),
        ("\u{1B}O", "A", [.up]),
        ("\u{1B}[1;", "5A", [.up]),
    ])
    func aKeySplitAcrossReadsIsStillOneKey(first: String, second: String, expected: [Key]) {
        var decoder = KeyDecoder()
        let keys = decoder.keys(in: Array(first.utf8)) + decoder.keys(in: Array(second.utf8))
        #expect(keys == expected)
    }

    /// A sequence cut short by a byte that cannot continue it: the byte is a key.
    @Test(arguments: [
        ("\u{1B}[", "\r", [Key.character("["), .enter]),
        ("\u{1B}[", "\u{1B}", [.character("["), .escape]),
        ("\u{1B}O", "\r", [.character("O"), .enter]),
        ("\u{1B}[1;", "\u{1B}[A", [.up]),
    ])
    func aKeyAfterAnIncompleteSequenceIsNotSwallowed(first: String, second: String, expected: [Key]) {
        var decoder = KeyDecoder()
        let keys = decoder.keys(in: Array(first.utf8)) + decoder.keys(in: Array(second.utf8))
        #expect(keys == expected)
        #expect(self.keys(first + second) == expected, "in one read")
    }

    @Test func anIncompleteKeyIsGivenUpOnWhenFlushed() {
        for (text, expected) in [("\u{1B}[", [Key.character("[")]), ("\u{1B}O", [.character("O")]), ("\u{1B}[5", []), ("\u{1B}[1;", [])] {
            var decoder = KeyDecoder()
            #expect(decoder.keys(in: Array(text.utf8)).isEmpty)
            #expect(decoder.isAwaitingMoreInput)
            #expect(decoder.flushIncomplete() == expected, "\(text.debugDescription)")
            #expect(!decoder.isAwaitingMoreInput)
            #expect(decoder.keys(in: Array("B".utf8)) == [.character("B")])
        }
        var decoder = KeyDecoder()
        #expect(decoder.keys(in: [0xE7, 0x8E]).isEmpty && decoder.isAwaitingMoreInput)
        #expect(decoder.flushIncomplete().isEmpty)
        #expect(decoder.keys(in: Array("\u{1B}".utf8)) == [.escape] && !decoder.isAwaitingMoreInput)
    }

    @Test func aSplitUTF8CharacterIsRead() {
        var decoder = KeyDecoder()
        let keys = decoder.keys(in: [0xC3]) + decoder.keys(in: [0xB6])
        #expect(keys == [.character("ö")])
    }

    @Test func longParametersNeitherTrapNorGrow() {
        #expect(keys("\u{1B}[99999999999999999999~x") == [.character("x")])
        #expect(keys("\u{1B}[" + String(repeating: "1;", count: 10_000) + "5~") == [.home])  // the first parameter counts
        #expect(keys("\u{1B}[" + String(repeating: "0", count: 40) + "6~q") == [.character("q")])
    }

    @Test func unknownSequencesAreIgnored() {
        #expect(keys("\u{1B}[200~x") == [.character("x")])
        #expect(keys("\u{1B}[99Z") == [])
    }
}

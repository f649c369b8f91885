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

    @Test func unknownSequencesAreIgnored() {
        #expect(keys("\u{1B}[200~x") == [.character("x")])
        #expect(keys("\u{1B}[99Z") == [])
    }
}

/// How many terminal columns text occupies.
///
/// Terminals lay text out in a grid of cells. Most characters take one cell; East Asian
/// wide and fullwidth characters (CJK ideographs, kana, Hangul syllables, fullwidth
/// forms) and emoji shown in emoji presentation take two; combining marks and format
/// characters on their own take none. Widths are measured per *grapheme cluster*
/// (Swift's `Character`), so `"e\u{301}"` is one column, and emoji sequences such as
/// `"👩‍💻"` (woman, zero width joiner, laptop), `"🇸🇪"` (a flag) or `"❤️"` (heart with
/// the emoji variation selector) are two.
///
/// The rules, from the scalar properties of the cluster's first scalar:
/// 1. A cluster holding U+FE0F (emoji presentation selector) after an emoji scalar: 2.
/// 2. `Emoji_Presentation` (`Unicode.Scalar.Properties.isEmojiPresentation`): 2,
///    unless U+FE0E (text presentation selector) follows: 1.
/// 3. Nonspacing and enclosing marks, format characters (except the soft hyphen),
///    Hangul medial and final jamo, and control characters: 0 — also the few marks
///    that `EastAsianWidth.txt` lists as wide, such as U+3099 (combining voiced sound
///    mark), which terminals give no column.
/// 4. East Asian Width `W` or `F` (the ranges of Unicode's `EastAsianWidth.txt`, which
///    the standard library does not expose): 2.
/// 5. Everything else: 1.
///
/// Prepending marks at the start of a cluster (Unicode's `Prepend` class, such as
/// U+0600 ARABIC NUMBER SIGN) are skipped: the rules read the scalar they prepend to.
///
/// ```swift
/// DisplayWidth.of("Kai 🦊")   // 6
/// DisplayWidth.of("王小明")     // 6
/// DisplayWidth.of("Zoë")       // 3
/// ```
///
/// Control characters count 0 here because a terminal does not print them; show them
/// with ``TerminalText/escapingControlCharacters(_:)`` first.
public enum DisplayWidth {
    /// The number of columns `character` occupies: 0, 1 or 2.
    ///
    /// - Parameter character: a grapheme cluster.
    /// - Returns: 0, 1 or 2, by the rules above.
    /// - Complexity: O(*s*) for *s* scalars in the cluster, plus O(log *r*) for the
    ///   table of *r* wide ranges.
    public static func of(_ character: Character) -> Int {
        let all = character.unicodeScalars
        guard let lead = all.first else { return 0 }
        if lead.value < 0x7F && all.count == 1 {
            return lead.value < 0x20 ? 0 : 1
        }
        // Prepending marks (Unicode's `Prepend` class, such as U+0600 before digits)
        // belong to the character after them, which decides the width.
        let scalars = all.count > 1 && _isPrepend(lead) ? all.drop(while: _isPrepend) : all[...]
        let first = scalars.first ?? lead
        let properties = first.properties
        if scalars.count > 1 {
            var hasEmojiSelector = false, hasTextSelector = false
            for scalar in scalars.dropFirst() {
                if scalar.value == 0xFE0F { hasEmojiSelector = true }
                if scalar.value == 0xFE0E { hasTextSelector = true }
            }
            if hasEmojiSelector && properties.isEmoji { return 2 }
            if hasTextSelector && properties.isEmoji && !_isEastAsianWide(first.value) { return 1 }
        }
        if properties.isEmojiPresentation { return 2 }
        if _isZeroWidth(first) { return 0 }
        if _isEastAsianWide(first.value) { return 2 }
        return 1
    }

    /// The number of columns `text` occupies: the sum over its grapheme clusters.
    ///
    /// - Parameter text: any text; control characters count 0.
    /// - Returns: the sum of the widths of the characters of `text`.
    /// - Complexity: O(*n*) for *n* scalars.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Whether terminals are known to disagree about the width of `character`.
    ///
    /// Older terminals measure each scalar on its own (`wcwidth`), so they show a
    /// zero-width-joiner sequence, a flag, a character with a variation selector or
    /// a skin tone modifier, or a syllable with a spacing vowel sign (Devanagari "कि")
    /// wider or narrower than modern ones do. The renderer never
    /// positions the cursor right after such a cluster and never leaves cells after one
    /// untouched when it rewrites a row, so a disagreement cannot spread.
    ///
    /// - Parameter character: a grapheme cluster.
    /// - Returns: `true` if a scalar after the first is a variation selector
    ///   (U+FE00–U+FE0F) or not a nonspacing or enclosing mark, such as a spacing mark,
    ///   a zero width joiner, a second regional indicator or a skin tone modifier.
    /// - Complexity: O(*s*) for *s* scalars in the cluster.
    public static func isAmbiguous(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard scalars.count > 1 else { return false }
        for scalar in scalars.dropFirst() {
            if (0xFE00...0xFE0F).contains(scalar.value) { return true }  // variation selectors
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: return true
            }
        }
        return false
    }

    /// Whether `scalar` joins the character after it into its grapheme cluster, as
    /// only the `Prepend` class does (the standard library does not expose the class).
    static func _isPrepend(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x600 && (String(scalar) + " ").count == 1
    }

    static func _isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value == 0xAD { return false }  // soft hyphen is shown
        if (0x80..<0xA0).contains(value) { return true }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    /// East Asian Width `W` and `F` blocks (EastAsianWidth.txt, Unicode 15.1), without
    /// the emoji, which `isEmojiPresentation` decides. Sorted, non-overlapping, inclusive.
    static let _wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, enclosed CJK, CJK compatibility
        0x3400...0x4DBF,    // CJK extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x16FF0...0x16FF1,
        0x17000...0x18CFF,  // Tangut, Khitan
        0x18D00...0x18D08,
        0x1AFF0...0x1B2FF,  // Kana extended, Kana supplement, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G–H
    ]

    static func _isEastAsianWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0, high = _wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            let range = _wideRanges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}

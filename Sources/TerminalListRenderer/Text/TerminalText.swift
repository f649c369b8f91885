/// Making arbitrary text safe and fitting for a terminal row.
///
/// Item text comes from outside (a server, a file, a user) and may hold bytes that a
/// terminal would act on: an escape sequence can move the cursor, recolour the screen
/// or retitle the window. Everything the renderer shows goes through
/// ``escapingControlCharacters(_:)`` first, so such characters are *shown*, never sent.
///
/// ```swift
/// TerminalText.escapingControlCharacters("a\u{1B}[2Jb")   // "a^[[2Jb"
/// TerminalText.truncated("王小明 wins", toWidth: 5)          // "王小…"
/// ```
public enum TerminalText {
    /// `text` with every character a terminal would interpret replaced by a visible escape.
    ///
    /// - C0 controls U+0000–U+001F in caret notation: NUL `^@`, tab `^I`, line feed `^J`,
    ///   escape `^[`; DEL U+007F as `^?`.
    /// - C1 controls U+0080–U+009F (CSI U+009B starts a sequence on some terminals) as
    ///   `\u{9B}`.
    /// - Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
    ///   the marks U+200E and U+200F, and the line and paragraph separators U+2028 and
    ///   U+2029, which reorder or break a row, as `\u{202E}`.
    ///
    /// - Parameter text: any text.
    /// - Returns: `text` itself when nothing needs escaping.
    /// - Complexity: O(*n*) for *n* scalars.
    public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: _needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard _needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: _escape(scalar).unicodeScalars)
        }
        return String(result)
    }

    /// `text` cut to at most `width` columns, ending in `ellipsis` when something was cut.
    ///
    /// Never splits a grapheme cluster: a wide character that would straddle the limit
    /// is dropped. Control characters are escaped first.
    /// - Parameters:
    ///   - text: any text.
    ///   - width: the number of columns available.
    ///   - ellipsis: what marks a cut; `"…"` by default, `""` for a hard cut.
    /// - Returns: text whose ``DisplayWidth`` is at most `width`.
    /// - Complexity: O(*n*) for *n* scalars.
    public static func truncated(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        var result = ""
        for cell in _LineLayout.cells(for: StyledText(text), columns: max(0, width), ellipsis: ellipsis) where !cell.isContinuation {
            result += cell.text
        }
        return result
    }

    static func _needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func _escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00...0x1F:
            return "^" + String(Unicode.Scalar(UInt8(scalar.value + 0x40)))
        case 0x7F:
            return "^?"
        default:
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}

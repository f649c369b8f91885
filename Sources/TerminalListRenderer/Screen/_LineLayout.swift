/// Lays styled text out into screen cells: escaping, measuring, cutting, padding.
enum _LineLayout {
    /// The cells of `text`, at most `columns` wide, not padded.
    ///
    /// Control characters are escaped first. The spans are joined and split into
    /// grapheme clusters as one string, so a cluster that straddles two spans (two
    /// regional indicators, an emoji and its modifier) is one cell, in the style of its
    /// first scalar; the text of a line, read back from any cell boundary, splits into
    /// the same cells. A zero-width cluster joins the cell before it, as a terminal
    /// attaches it to the previous character; at the start of a line it is shown on a
    /// dotted circle (U+25CC). Prepending marks at the very end of the text (Unicode's
    /// `Prepend` class, such as U+0600 or U+0D4E), which would join whatever is written
    /// after them — padding, an ellipsis, the next update's cells — into their cluster,
    /// are shown escaped, as `\u{600}`. When the text does not fit, it is cut at a cell
    /// boundary and `ellipsis` takes the last columns.
    /// - Complexity: O(*n*) for *n* scalars of text.
    static func cells(for text: StyledText, columns: Int, ellipsis: String = "…", colors: Bool = true) -> [ScreenCell] {
        var joined = ""
        var spanStarts: [(scalarOffset: Int, style: TextStyle)] = []
        var scalarCount = 0
        for span in text.spans where !span.text.isEmpty {
            let escaped = TerminalText.escapingControlCharacters(span.text)
            spanStarts.append((scalarCount, colors ? span.style : span.style.withoutColors))
            scalarCount += escaped.unicodeScalars.count
            joined += escaped
        }
        joined = _escapingTrailingPrepends(joined)

        var cells: [ScreenCell] = []
        cells.reserveCapacity(columns)
        var overflowStyle: TextStyle? = nil
        var scalarOffset = 0, spanIndex = 0
        for character in joined {
            while spanIndex + 1 < spanStarts.count && spanStarts[spanIndex + 1].scalarOffset <= scalarOffset {
                spanIndex += 1
            }
            let style = spanStarts[spanIndex].style
            scalarOffset += character.unicodeScalars.count
            var width = DisplayWidth.of(character)
            var cellText = String(character)
            if width == 0 {
                if let lead = cells.lastIndex(where: { !$0.isContinuation }) {
                    cells[lead].text += cellText
                    continue
                }
                cellText = "\u{25CC}" + cellText
                width = 1
            }
            if cells.count + width > columns {
                overflowStyle = style
                break
            }
            cells.append(ScreenCell(text: cellText, style: style, width: width))
            if width == 2 { cells.append(.continuation(style)) }
        }
        if let overflowStyle {
            let marker = ellipsis.isEmpty ? [] : Self.cells(for: StyledText(ellipsis, style: overflowStyle), columns: columns, ellipsis: "", colors: colors)
            while cells.count + marker.count > columns, let last = cells.popLast() {
                if last.isContinuation { cells.removeLast() }
            }
            if cells.count + marker.count <= columns { cells += marker }
        }
        return cells
    }

    /// `text` with the scalars at its end that would join a following character into
    /// their grapheme cluster (a space after them stays in the same `Character`) shown
    /// escaped. Only the `Prepend` class does that; inside the text it joins the
    /// character after it, which every reading splits alike.
    /// - Complexity: O(*p*) for *p* such scalars at the end.
    static func _escapingTrailingPrepends(_ text: String) -> String {
        let scalars = text.unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex {
            let last = scalars.index(before: end)
            guard DisplayWidth._isPrepend(scalars[last]) else { break }
            end = last
        }
        guard end < scalars.endIndex else { return text }
        var result = String(scalars[..<end])
        for scalar in scalars[end...] { result += TerminalText._escape(scalar) }
        return result
    }

    /// `cells` padded with `fill` to exactly `columns` cells (or cut to it).
    static func padded(_ cells: [ScreenCell], to columns: Int, fill: ScreenCell = .blank) -> [ScreenCell] {
        var line = cells
        if line.count > columns {
            line.removeLast(line.count - columns)
            if let last = line.last, last.width == 2 {
                line[line.count - 1] = fill
            }
        }
        while line.count < columns { line.append(fill) }
        return line
    }

    /// One full-width line for `text`, padded with blanks in `padding` style.
    static func line(_ text: StyledText, columns: Int, colors: Bool, padding: TextStyle = .plain) -> [ScreenCell] {
        let fillStyle = colors ? padding : padding.withoutColors
        return padded(cells(for: text, columns: columns, colors: colors), to: columns, fill: ScreenCell(text: " ", style: fillStyle))
    }
}

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
    /// dotted circle (U+25CC). When the text does not fit, it is cut at a cell boundary
    /// and `ellipsis` takes the last columns.
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

import LeaderboardFixtures
import TerminalListRenderer

/// How a player looks in the terminal: rank, name, score, country.
enum PlayerRow {
    static let nameWidth = 26

    /// The column titles, aligned with ``format(_:offset:)``.
    static let header = StyledText(
        "    #  " + padded("Player", to: nameWidth) + "    Score  Country",
        style: TextStyle(isBold: true, isUnderlined: true)
    )

    /// One row: the row number, the name cut or padded to its column by display width
    /// (so CJK names and emoji line up), the score and the country.
    static func format(_ player: Player, offset: Int) -> StyledText {
        let rank = offset + 1
        let nameStyle = rank <= 3 ? TextStyle(foreground: .yellow, isBold: true) : .plain
        return StyledText(leftPadded("\(rank)", to: 5) + "  ", style: TextStyle(isDim: true))
            + StyledText(padded(player.name, to: nameWidth), style: nameStyle)
            + StyledText(leftPadded(player.formattedScore, to: 9), style: TextStyle(foreground: .cyan))
            + StyledText("  " + player.country, style: TextStyle(isDim: true))
    }

    /// `text` cut to `width` columns (control characters escaped) and padded with spaces.
    static func padded(_ text: String, to width: Int) -> String {
        let cut = TerminalText.truncated(text, toWidth: width)
        return cut + String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
    }

    static func leftPadded(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

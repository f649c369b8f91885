import LeaderboardFixtures
import TerminalListRenderer

/// How a player looks in the terminal: rank, name, score, country.
enum PlayerRow {
    static let nameWidth = 26

    /// The column titles, aligned with ``format(_:offset:)``.
    static let header = header(rankWidth: 5)

    /// The column titles, aligned with ``format(_:rank:rankWidth:)``.
    static func header(rankWidth: Int) -> StyledText {
        StyledText(
            leftPadded("#", to: rankWidth) + "  " + padded("Player", to: nameWidth) + "    Score  Country",
            style: TextStyle(isBold: true, isUnderlined: true)
        )
    }

    /// One row, numbered by its offset in the list.
    static func format(_ player: Player, offset: Int) -> StyledText {
        format(player, rank: offset + 1)
    }

    /// One row: the rank, the name cut or padded to its column by display width (so CJK
    /// names and emoji line up), the score and the country.
    static func format(_ player: Player, rank: Int, rankWidth: Int = 5) -> StyledText {
        let nameStyle = rank <= 3 ? TextStyle(foreground: .yellow, isBold: true) : .plain
        return StyledText(leftPadded("\(rank)", to: rankWidth) + "  ", style: TextStyle(isDim: true))
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

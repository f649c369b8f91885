/// One of the sixteen standard terminal colours.
///
/// What each colour looks like is up to the terminal's theme.
///
/// ```swift
/// let alert = TextStyle(foreground: .brightWhite, background: .red)
/// ```
public enum TerminalColor: UInt8, Hashable, Sendable, CaseIterable {
    /// The eight normal colours (raw values 0–7): SGR 30–37 as a foreground, 40–47 as a
    /// background.
    case black, red, green, yellow, blue, magenta, cyan, white
    /// The eight bright colours (raw values 8–15): SGR 90–97 as a foreground, 100–107 as
    /// a background.
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

    /// The SGR parameter for this colour as a foreground (30–37, 90–97).
    var _foregroundCode: Int { rawValue < 8 ? 30 + Int(rawValue) : 90 + Int(rawValue) - 8 }
    /// The SGR parameter for this colour as a background (40–47, 100–107).
    var _backgroundCode: Int { rawValue < 8 ? 40 + Int(rawValue) : 100 + Int(rawValue) - 8 }
}

/// How text is drawn: colours and attributes (SGR, "select graphic rendition").
///
/// ```swift
/// let warning = TextStyle(foreground: .yellow, isBold: true)
/// ```
public struct TextStyle: Hashable, Sendable {
    /// The text colour, or `nil` for the terminal's default.
    public var foreground: TerminalColor?
    /// The background colour, or `nil` for the terminal's default.
    public var background: TerminalColor?
    /// Bold (or bright) text.
    public var isBold: Bool
    /// Faint text.
    public var isDim: Bool
    /// Underlined text.
    public var isUnderlined: Bool
    /// Foreground and background swapped; what the selected row uses.
    public var isReversed: Bool

    /// Creates a style; every attribute defaults to off and colours to the terminal's.
    ///
    /// - Parameters:
    ///   - foreground: the text colour, or `nil` for the terminal's default.
    ///   - background: the background colour, or `nil` for the terminal's default.
    ///   - isBold: bold (or bright) text.
    ///   - isDim: faint text.
    ///   - isUnderlined: underlined text.
    ///   - isReversed: foreground and background swapped.
    /// - Complexity: O(1).
    public init(
        foreground: TerminalColor? = nil,
        background: TerminalColor? = nil,
        isBold: Bool = false,
        isDim: Bool = false,
        isUnderlined: Bool = false,
        isReversed: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.isBold = isBold
        self.isDim = isDim
        self.isUnderlined = isUnderlined
        self.isReversed = isReversed
    }

    /// The terminal's default rendition.
    public static let plain = TextStyle()

    /// This style without colours, as the `NO_COLOR` convention asks; attributes stay.
    ///
    /// - Complexity: O(1).
    public var withoutColors: TextStyle {
        var style = self
        style.foreground = nil
        style.background = nil
        return style
    }

    /// The SGR parameters that produce this style from a reset: `[0]` for plain.
    var _sgrParameters: [Int] {
        var parameters = [0]
        if isBold { parameters.append(1) }
        if isDim { parameters.append(2) }
        if isUnderlined { parameters.append(4) }
        if isReversed { parameters.append(7) }
        if let foreground { parameters.append(foreground._foregroundCode) }
        if let background { parameters.append(background._backgroundCode) }
        return parameters
    }
}

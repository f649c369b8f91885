/// Text made of runs that each have a ``TextStyle``: what a row formatter returns.
///
/// A string literal is plain text; `+` concatenates.
/// ```swift
/// let row: StyledText = "#1  " + StyledText("Zoë Lindqvist", style: TextStyle(isBold: true))
///     + StyledText("  99,999", style: TextStyle(foreground: .green))
/// ```
/// The text may hold anything; the renderer escapes control characters and cuts it to
/// the row's width.
public struct StyledText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A run of text in one style.
    public struct Span: Hashable, Sendable {
        /// The text of the run.
        public var text: String
        /// How the run is drawn.
        public var style: TextStyle

        /// Creates a run.
        public init(_ text: String, style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The runs, in order.
    public var spans: [Span]

    /// Creates text from runs.
    public init(spans: [Span]) {
        self.spans = spans
    }

    /// Creates text in one style.
    public init(_ text: String, style: TextStyle = .plain) {
        self.spans = text.isEmpty ? [] : [Span(text, style: style)]
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Appends a run.
    public mutating func append(_ text: String, style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        spans.append(Span(text, style: style))
    }

    /// Appends other text.
    public mutating func append(_ other: StyledText) {
        spans.append(contentsOf: other.spans)
    }

    /// The concatenation of two texts.
    public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    public var description: String { plainText }
}

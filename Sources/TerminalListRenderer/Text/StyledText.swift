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
        ///
        /// - Parameters:
        ///   - text: the text of the run.
        ///   - style: how the run is drawn; plain by default.
        /// - Complexity: O(1).
        public init(_ text: String, style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The runs, in order.
    public var spans: [Span]

    /// Creates text from runs.
    ///
    /// - Parameter spans: the runs, in order; empty runs are kept.
    /// - Complexity: O(1).
    public init(spans: [Span]) {
        self.spans = spans
    }

    /// Creates text in one style.
    ///
    /// - Parameters:
    ///   - text: the text; empty text makes no run.
    ///   - style: how the text is drawn; plain by default.
    /// - Complexity: O(1).
    public init(_ text: String, style: TextStyle = .plain) {
        self.spans = text.isEmpty ? [] : [Span(text, style: style)]
    }

    /// Creates plain text from a string literal.
    ///
    /// - Parameter value: the text.
    /// - Complexity: O(1).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Appends a run.
    ///
    /// - Parameters:
    ///   - text: the text of the run; empty text appends nothing.
    ///   - style: how the run is drawn; plain by default.
    /// - Complexity: O(1) amortized.
    public mutating func append(_ text: String, style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        spans.append(Span(text, style: style))
    }

    /// Appends other text.
    ///
    /// - Parameter other: the text whose runs are appended, styles kept.
    /// - Complexity: O(*m*) amortized for *m* runs in `other`.
    public mutating func append(_ other: StyledText) {
        spans.append(contentsOf: other.spans)
    }

    /// The concatenation of two texts.
    ///
    /// - Parameters:
    ///   - lhs: the first text.
    ///   - rhs: the text that follows it.
    /// - Returns: the runs of `lhs` followed by those of `rhs`.
    /// - Complexity: O(*k* + *m*) for *k* and *m* runs.
    public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// The text without styles.
    ///
    /// - Complexity: O(*n*) in the length of the text.
    public var plainText: String { spans.map(\.text).joined() }

    /// The text without styles, like ``plainText``.
    ///
    /// - Complexity: O(*n*) in the length of the text.
    public var description: String { plainText }
}

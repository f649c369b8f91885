/// A fragment of HTML markup whose text parts are escaped unless you say otherwise.
///
/// Row HTML is built from two kinds of parts: markup the program itself writes (string
/// literals) and text that comes from data (names, titles, anything a user typed). `HTML`
/// keeps them apart. Literal segments are taken as markup; every interpolated value is
/// escaped (`&`, `<`, `>`, `"` and `'` become character references), so data can never
/// open a tag, close an attribute or start a script:
///
/// ```swift
/// let name = #"O'Connor <script>alert("x")</script>"#
/// let row: HTML = "<span class=\"name\" title=\"\(name)\">\(name)</span>"
/// // <span class="name" title="O&#39;Connor &lt;script&gt;…">O&#39;Connor &lt;script&gt;…</span>
/// ```
///
/// Markup from elsewhere goes in only through an explicit opt-in:
///
/// ```swift
/// let badge = HTML.raw(trustedBadgeMarkup)           // not escaped
/// let row: HTML = "<b>\(player.name)</b> \(badge)"   // a nested HTML value is kept as is
/// ```
///
/// Escaping makes interpolated text safe in element content and in *quoted* attribute
/// values (single or double quotes). It does not make a value safe as an unquoted
/// attribute, inside `<script>` or `<style>`, or as a URL (`javascript:` is plain text to
/// an escaper); do not interpolate data into those places. Non-ASCII text is kept as it
/// is (the markup is UTF-8), not turned into character references.
public struct HTML: Hashable, Sendable {
    /// The markup, ready to be assigned to an element's `innerHTML`.
    public let markup: String

    init(_markup markup: String) {
        self.markup = markup
    }

    /// Markup that shows `text` literally: every character that means something in HTML
    /// is escaped.
    ///
    /// ```swift
    /// HTML.text("Fish & <Chips>").markup   // "Fish &amp; &lt;Chips&gt;"
    /// ```
    /// - Parameter text: any text; non-ASCII characters are kept.
    /// - Returns: the escaped text as markup.
    /// - Complexity: O(*n*) in the UTF-8 length of `text`.
    public static func text(_ text: some StringProtocol) -> HTML {
        HTML(_markup: escape(text))
    }

    /// Markup taken as it is, without escaping — the explicit opt-in for HTML that is
    /// already safe (written by the program, or sanitised elsewhere).
    ///
    /// - Parameter markup: trusted markup.
    /// - Returns: the markup, unchanged.
    /// - Complexity: O(1).
    public static func raw(_ markup: String) -> HTML {
        HTML(_markup: markup)
    }

    /// The empty fragment.
    public static let empty = HTML(_markup: "")

    /// Whether the fragment has no markup at all.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { markup.isEmpty }

    /// The two fragments one after the other.
    ///
    /// - Parameters:
    ///   - lhs: the first fragment.
    ///   - rhs: the fragment that follows it.
    /// - Returns: the markup of `lhs` followed by that of `rhs`, neither escaped again.
    /// - Complexity: O(*n* + *m*) in the lengths of the markup.
    public static func + (lhs: HTML, rhs: HTML) -> HTML {
        HTML(_markup: lhs.markup + rhs.markup)
    }

    /// Appends a fragment.
    ///
    /// - Parameters:
    ///   - lhs: the fragment to extend.
    ///   - rhs: the fragment appended to it, not escaped again.
    /// - Complexity: O(*n* + *m*) in the lengths of the markup.
    public static func += (lhs: inout HTML, rhs: HTML) {
        lhs = lhs + rhs
    }
}

extension HTML: CustomStringConvertible {
    /// The markup.
    ///
    /// - Complexity: O(1).
    public var description: String { markup }
}

extension Sequence where Element == HTML {
    /// The fragments one after the other, with `separator` between neighbours.
    ///
    /// - Parameter separator: markup put between two fragments; empty by default.
    /// - Returns: one fragment holding all the markup, in order, none of it escaped again.
    /// - Complexity: O(total markup length).
    public func joined(separator: HTML = .empty) -> HTML {
        HTML(_markup: map(\.markup).joined(separator: separator.markup))
    }
}

// MARK: - Literals and interpolation

extension HTML: ExpressibleByStringInterpolation {
    /// A literal is markup written by the program, so it is taken as it is.
    ///
    /// Do not call this initialiser with a string computed at run time; use
    /// ``text(_:)`` for text or ``raw(_:)`` for trusted markup.
    ///
    /// - Parameter markup: the literal's markup.
    /// - Complexity: O(1).
    public init(stringLiteral markup: String) {
        self.init(_markup: markup)
    }

    /// An interpolated literal: literal segments are markup, interpolated values are escaped.
    ///
    /// - Parameter stringInterpolation: the literal's markup, built segment by segment.
    /// - Complexity: O(1).
    public init(stringInterpolation: StringInterpolation) {
        self.init(_markup: stringInterpolation.markup)
    }

    /// Builds the markup of an interpolated `HTML` literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        var markup: String

        /// Starts an empty literal, with room for its markup.
        ///
        /// - Parameters:
        ///   - literalCapacity: the number of characters in the literal segments.
        ///   - interpolationCount: the number of interpolated values.
        /// - Complexity: O(1).
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup = ""
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// A literal segment: markup, kept as it is.
        ///
        /// - Parameter literal: the segment.
        /// - Complexity: O(*n*) in the length of `literal`, amortized.
        public mutating func appendLiteral(_ literal: String) {
            markup += literal
        }

        /// A value: its text, escaped.
        ///
        /// - Parameter value: any value; its `description` is escaped.
        /// - Complexity: O(*n*) in the UTF-8 length of `value.description`.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            markup += HTML.escape(value.description)
        }

        /// A nested fragment: its markup, kept as it is (it was escaped when it was made).
        ///
        /// - Parameter html: the fragment.
        /// - Complexity: O(*n*) in the length of its markup, amortized.
        public mutating func appendInterpolation(_ html: HTML) {
            markup += html.markup
        }

        /// Trusted markup, kept as it is: `"<td>\(raw: iconMarkup)</td>"`.
        ///
        /// - Parameter markup: trusted markup; not escaped.
        /// - Complexity: O(*n*) in the length of `markup`, amortized.
        public mutating func appendInterpolation(raw markup: String) {
            self.markup += markup
        }
    }
}

/// One cell of a terminal screen: a grapheme cluster and its style.
///
/// A wide character (two columns) is a cell of ``width`` 2 followed by a
/// *continuation* cell (``width`` 0, empty ``text``) in the same style. Both the
/// renderer's model of the screen and `VirtualScreen` are grids of these.
public struct ScreenCell: Hashable, Sendable, CustomStringConvertible {
    /// The grapheme cluster shown (possibly followed by zero-width characters), or `""`
    /// for the right half of a wide character.
    public var text: String
    /// How the cell is drawn.
    public var style: TextStyle
    /// Columns the cell's text occupies: 1 or 2, or 0 for a continuation cell.
    public var width: Int

    /// Creates a cell.
    ///
    /// - Parameters:
    ///   - text: a grapheme cluster, or `""` for a continuation cell.
    ///   - style: how the cell is drawn; plain by default.
    ///   - width: 1 or 2 columns, or 0 for a continuation cell; 1 by default.
    /// - Complexity: O(1).
    public init(text: String, style: TextStyle = .plain, width: Int = 1) {
        self.text = text
        self.style = style
        self.width = width
    }

    /// A space in the default style: what an erased cell holds.
    public static let blank = ScreenCell(text: " ")

    /// The right half of a wide character drawn in `style`.
    package static func continuation(_ style: TextStyle) -> ScreenCell {
        ScreenCell(text: "", style: style, width: 0)
    }

    /// Whether this is the right half of a wide character.
    ///
    /// - Complexity: O(1).
    public var isContinuation: Bool { width == 0 }

    /// Whether terminals may disagree about this cell's width (see ``DisplayWidth/isAmbiguous(_:)``).
    var _isAmbiguous: Bool {
        let scalars = text.unicodeScalars
        guard scalars.count > 1 else { return false }
        guard text.count == 1, let character = text.first else { return true }
        return DisplayWidth.isAmbiguous(character)
    }

    /// The cell's text, or `·` for a continuation cell.
    ///
    /// - Complexity: O(1).
    public var description: String { isContinuation ? "·" : text }
}

/// A sorted run of edits that ``_CountedBTree/_editing(with:)`` applies in one pass.
///
/// The editor owns the edits, numbered `0 ..< editCount` in the order of the tree's
/// elements (by whatever key the tree is ordered by), and knows how to apply those that
/// fall into one leaf. The pass routes each edit to its leaf and keeps every other
/// subtree as it is.
@usableFromInline protocol _TreeEditor<Element> {
    associatedtype Element

    /// The number of edits.
    var editCount: Int { get }

    /// Whether edit `edit` belongs at or after `element`: in the subtree that starts
    /// with `element` or in a later one.
    ///
    /// Must be monotonic over the edits: `false` for a prefix of them, `true` for the rest.
    func edit(_ edit: Int, belongsAtOrAfter element: Element) -> Bool

    /// The number of elements `leaf` holds once `edits` are applied, or `nil` when they
    /// cannot be applied here (an edit names an element that is not in this leaf, say);
    /// the whole pass is then abandoned. Called just before
    /// ``apply(_:to:oldOffset:newOffset:into:)`` with the same edits.
    ///
    /// - Parameter oldOffset: the position of `leaf[0]` in the tree being edited.
    mutating func count(after edits: Range<Int>, in leaf: [Element], oldOffset: Int) -> Int?

    /// Appends to `output` the elements of `leaf` with `edits` applied, in order: as many
    /// as ``count(after:in:oldOffset:)`` said.
    ///
    /// - Parameters:
    ///   - oldOffset: the position of `leaf[0]` in the tree being edited.
    ///   - newOffset: the position that the first appended element has in the new tree.
    /// - Returns: `false` to abandon the pass.
    mutating func apply(_ edits: Range<Int>, to leaf: [Element], oldOffset: Int, newOffset: Int, into output: inout _LeafWriter<Element>) -> Bool

    /// Called, in order with ``apply(_:to:oldOffset:newOffset:into:)``, for each subtree
    /// that the pass keeps unchanged.
    mutating func keep(_ subtree: _CountedBTree<Element>._Node) -> Bool

    /// Prepares a copy of the editor to apply the later part of a pass cut in two (see
    /// ``_CountedBTree/_editingConcurrently(with:from:)``): the copy starts in the
    /// middle of the tree without seeing what the earlier part writes.
    mutating func beginLaterPart()

    /// Takes over what `later`, a copy prepared by ``beginLaterPart()``, found while it
    /// applied `laterEdits` (the edits after this editor's) to the rest of the tree.
    /// Returns `false` to abandon the pass.
    ///
    /// - Parameters:
    ///   - emittedBefore: how many elements this editor's part wrote: the new position
    ///     of the first element the later part wrote.
    ///   - lastBefore: the last element this editor's part wrote, if any.
    ///   - firstAfter: the first element the later part wrote, if any.
    mutating func join(_ later: Self, laterEdits: Range<Int>, emittedBefore: Int, lastBefore: Element?, firstAfter: Element?) -> Bool
}

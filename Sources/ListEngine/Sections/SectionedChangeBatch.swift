/// What changed between two versions of a sectioned list, in index paths.
///
/// A sectioned batch carries the two snapshots it connects, the same change as a flat
/// ``ChangeBatch`` (``rows``, with the same version), and the change in index paths, in
/// two equivalent forms:
///
/// - **Sets**, as sectioned table and collection views consume them: sections whose key
///   is gone or new, rows whose id is gone or new, rows that moved (possibly to another
///   section) and rows whose content changed. Apply them to `old` as nested arrays by
///   removing item deletions and move sources (highest path first), then the deleted
///   sections (each empty by then, highest first), inserting the new sections (empty,
///   lowest first), then item insertions and move destinations (lowest path first), and
///   reloading last. Every item change is listed, also inside sections that are
///   inserted or deleted.
/// - **Steps** (``steps``): the same change as a sequential edit script.
///
/// Moves are minimal in index-path terms: only rows named by the batch's calls move, a
/// row whose section changed always moves, and among the others the fewest move. The
/// flat ``rows`` batch reports exactly the same rows as moved.
///
/// ```swift
/// final class Table: SectionedListRenderer {
///     func render(_ batch: SectionedChangeBatch<String, Message>) {
///         print("-\(batch.sectionDeletions) +\(batch.sectionInsertions)",
///               "-\(batch.itemDeletions) +\(batch.itemInsertions) ~\(batch.itemMoves)")
///     }
/// }
/// ```
public struct SectionedChangeBatch<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: Sendable {
    /// The list before the change.
    public let old: SectionedSnapshot<Section, Item>
    /// The list after the change.
    public let new: SectionedSnapshot<Section, Item>
    /// The same change on the flat rows, at the same version.
    public let rows: ChangeBatch<Item>
    /// Ascending offsets in `old.sections` of sections whose key is not in `new`.
    public let sectionDeletions: [Int]
    /// Ascending offsets in `new.sections` of sections whose key is not in `old`.
    public let sectionInsertions: [Int]
    /// Ascending index paths in `old` of rows whose id is not in `new`.
    public let itemDeletions: [ListIndexPath]
    /// Ascending index paths in `new` of rows whose id is not in `old`.
    public let itemInsertions: [ListIndexPath]
    /// Rows in both snapshots that changed index path (`old` path → `new` path), ordered
    /// by destination.
    public let itemMoves: [ListIndexPathMove]
    /// Ascending index paths in `new` of rows in both snapshots whose content changed.
    public let itemReloads: [ListIndexPath]

    /// The sectioned form of a flat batch of a sectioned list's rows.
    ///
    /// - Complexity: O(1) for a batch the engine computed; O(*k* log *n* + *k* log *s*)
    ///   for an attach batch of *k* rows.
    @inlinable init(_ rows: ChangeBatch<Item>, rule: _SectionRule<Section, Item>) {
        let parts = rule.indexPathForm(of: rows)
        self.rows = rows
        self.old = rule.snapshot(of: rows.old)
        self.new = SectionedSnapshot(rows: rows.new, keys: parts.newKeys, sectionOf: rule.sectionOf)
        self.sectionDeletions = parts.sectionDeletions
        self.sectionInsertions = parts.sectionInsertions
        self.itemDeletions = parts.itemDeletions
        self.itemInsertions = parts.itemInsertions
        self.itemMoves = parts.itemMoves
        self.itemReloads = parts.itemReloads
    }

    /// The version of `new`; the same as `rows.version`.
    ///
    /// - Complexity: O(1).
    @inlinable public var version: Int { new.version }

    /// Whether the batch changes nothing. Only an attach batch for an empty list is empty.
    ///
    /// - Complexity: O(1).
    @inlinable public var isEmpty: Bool {
        sectionDeletions.isEmpty && sectionInsertions.isEmpty && itemDeletions.isEmpty && itemInsertions.isEmpty
            && itemMoves.isEmpty && itemReloads.isEmpty
    }
}

extension SectionedChangeBatch: CustomStringConvertible {
    /// The versions and the sets, for debugging.
    ///
    /// - Complexity: O(*k*) for *k* entries in the sets.
    public var description: String {
        "SectionedChangeBatch(v\(old.version)→v\(new.version), sections -\(sectionDeletions) +\(sectionInsertions), "
            + "items -\(itemDeletions) +\(itemInsertions) ~\(itemMoves) ↻\(itemReloads))"
    }
}

/// What changed between two versions of a list.
///
/// A batch carries the two snapshots it connects and the change between them, in two
/// equivalent forms:
///
/// - **Sets**, as table and collection views consume them: ``deletions`` (ascending
///   offsets in `old` of ids that are gone), ``insertions`` (ascending offsets in `new`
///   of ids that are new), ``moves`` (rows that changed place, `old` offset → `new`
///   offset) and ``reloads`` (ascending offsets in `new` of rows whose content changed).
///   Apply them by removing deletions and move sources from the highest offset down,
///   inserting insertions and move destinations from the lowest offset up, and then
///   reloading.
/// - **Steps**: the same change as a sequential edit script (``steps``), for renderers
///   that replay edits one at a time, such as a DOM or a terminal.
///
/// Moves are minimal. Only rows named by a mutation in the batch (every row, for
/// `sort(by:)`, `replaceAll(with:)` and `removeAll()`) may move; among those the batch
/// moves the fewest possible. The rows that stay form a longest increasing subsequence
/// of old offsets in new order (Schensted's patience method, O(*k* log *k*)), restricted
/// to rows whose place relative to the untouched rows is unchanged. Whole-array diffs
/// (Heckel's or Myers' algorithms) instead report every row between a moved row's old
/// and new place.
///
/// <doc:Semantics> states the four invariants every delivered batch satisfies.
///
/// ```swift
/// final class Printer: ListRenderer {
///     func render(_ batch: ChangeBatch<Player>) {
///         print("v\(batch.version): -\(batch.deletions) +\(batch.insertions) ~\(batch.moves)")
///     }
/// }
/// ```
public struct ChangeBatch<Item: Hashable & DataSourceComparable>: Sendable {
    /// The rows before the change.
    public let old: ListSnapshot<Item>
    /// The rows after the change.
    public let new: ListSnapshot<Item>
    /// Ascending offsets in `old` of rows whose id is not in `new`.
    public let deletions: [Int]
    /// Ascending offsets in `new` of rows whose id is not in `old`.
    public let insertions: [Int]
    /// Rows in both snapshots that changed place, ordered by destination.
    public let moves: [ListMove]
    /// Ascending offsets in `new` of rows in both snapshots whose content changed.
    public let reloads: [Int]
    /// The batch in index paths, for a sectioned list (see ``_Sectioning``); `nil`
    /// otherwise, and for attach batches.
    @usableFromInline var _sectioned: _AnySections? = nil

    /// Creates a batch from its parts. The parts must describe the step from `old` to `new`.
    ///
    /// The parts are not checked; a renderer trusts them.
    ///
    /// - Parameters:
    ///   - old: the rows before the change.
    ///   - new: the rows after the change.
    ///   - deletions: ascending offsets in `old` of rows whose id is not in `new`.
    ///   - insertions: ascending offsets in `new` of rows whose id is not in `old`.
    ///   - moves: rows in both snapshots that changed place, ordered by destination.
    ///   - reloads: ascending offsets in `new` of rows in both snapshots whose content
    ///     changed.
    /// - Complexity: O(1).
    @inlinable public init(old: ListSnapshot<Item>, new: ListSnapshot<Item>, deletions: [Int], insertions: [Int], moves: [ListMove], reloads: [Int]) {
        self.old = old
        self.new = new
        self.deletions = deletions
        self.insertions = insertions
        self.moves = moves
        self.reloads = reloads
    }

    /// The version of `new`: one more than `old.version`, except for the attach batch
    /// that brings a newly attached renderer from the empty list to the current one.
    ///
    /// - Complexity: O(1).
    @inlinable public var version: Int { new.version }

    /// Whether the batch changes nothing. Only an attach batch for an empty list is empty;
    /// mutations that change nothing deliver no batch.
    ///
    /// - Complexity: O(1).
    @inlinable public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && moves.isEmpty && reloads.isEmpty }

    /// The number of deletions, insertions, moves and reloads.
    @inlinable var _changedRowCount: Int { deletions.count + insertions.count + moves.count + reloads.count }

    /// The batch that brings a renderer from the empty list to `snapshot`.
    @inlinable static func attach(to snapshot: ListSnapshot<Item>) -> Self {
        ChangeBatch(
            old: .empty(comparator: snapshot._storage.areInIncreasingOrder),
            new: snapshot,
            deletions: [],
            insertions: Array(0..<snapshot.count),
            moves: [],
            reloads: []
        )
    }
}

extension ChangeBatch: CustomStringConvertible {
    /// The versions and the four sets, for debugging.
    ///
    /// - Complexity: O(*k*) for *k* offsets and moves in the batch.
    @inlinable public var description: String {
        "ChangeBatch(v\(old.version)→v\(new.version), deletions: \(deletions), insertions: \(insertions), moves: \(moves), reloads: \(reloads))"
    }
}

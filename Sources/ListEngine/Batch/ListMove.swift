/// A row that moved: its offset in the batch's `old` snapshot and in its `new` snapshot.
public struct ListMove: Hashable, Sendable, CustomStringConvertible {
    /// The row's offset in `old`.
    public let from: Int
    /// The row's offset in `new`.
    public let to: Int

    /// Creates a move from offset `from` in the old rows to offset `to` in the new rows.
    ///
    /// - Parameters:
    ///   - from: the row's offset in the batch's `old` snapshot.
    ///   - to: the row's offset in the batch's `new` snapshot.
    @inlinable public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// The move as `from→to`, for example `3→0`.
    ///
    /// - Complexity: O(1).
    @inlinable public var description: String { "\(from)→\(to)" }
}

/// One step of a sequential edit script.
///
/// Offsets refer to the list as it stands after the previous steps. `move` removes the
/// row at `from` and inserts it at `to` in the list without it.
public enum ListStep<Item> {
    /// Remove the row at the offset.
    case remove(at: Int)
    /// Insert the item at the offset.
    case insert(Item, at: Int)
    /// Move the row at `from` to `to` (offset after the removal).
    case move(from: Int, to: Int)
    /// Replace the row at the offset with the item (same id, new content).
    case reload(Item, at: Int)
}

extension ListStep: Sendable where Item: Sendable {}
extension ListStep: Equatable where Item: Equatable {}
extension ListStep: Hashable where Item: Hashable {}

/// Which rows a batch's mutations named, and so which rows may move.
@usableFromInline enum _TouchedRows<ID: Hashable & Sendable>: Sendable {
    /// Every row (after `sort(by:)`, `replaceAll(with:)` or `removeAll()`).
    case all
    /// The ids passed to `add` and `remove` calls.
    case ids(Set<ID>)
    /// The ids passed to `add` and `remove` calls, applied in bulk, with where each row
    /// was and is.
    case edited(_EditedRows)
}

extension _TouchedRows {
    /// Whether the row at an offset of `old`, the snapshot the batch starts from, was
    /// named by the batch's calls.
    ///
    /// - Complexity: O(*k*) to set up for *k* edited rows; each call then O(1), or
    ///   O(log *n*) to read the row's id for named ids.
    @inlinable func _isTouched<Item>(in old: ListSnapshot<Item>) -> (Int) -> Bool where Item.ID == ID {
        switch self {
        case .all:
            return { _ in true }
        case .ids(let ids):
            return { ids.contains(old[$0].id) }
        case .edited(let edited):
            let offsets = Set(edited.oldOffsets.filter { $0 >= 0 })
            return { offsets.contains($0) }
        }
    }
}

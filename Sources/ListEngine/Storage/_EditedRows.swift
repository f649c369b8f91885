/// What an edited batch did to each row it named, found while the edits were applied;
/// ``ChangeBatch`` is computed from it without searching either snapshot.
///
/// Rows are numbered by *owner*: one number per distinct id named by the calls.
@usableFromInline struct _EditedRows: Sendable, Equatable {
    /// Each owner's offset in the old rows, or -1 when its id was not there.
    @usableFromInline var oldOffsets: [Int]
    /// Each owner's offset in the new rows, or -1 when its id is not there.
    @usableFromInline var newOffsets: [Int]
    /// Whether the owner's id is in both and its item changed.
    @usableFromInline var isChanged: [Bool]
    /// The owners present in the old rows, by ascending old offset.
    @usableFromInline var oldOrder: [Int]
    /// The owners present in the new rows, by ascending new offset.
    @usableFromInline var newOrder: [Int]

    @inlinable init(owners: Int) {
        oldOffsets = [Int](repeating: -1, count: owners)
        newOffsets = [Int](repeating: -1, count: owners)
        isChanged = [Bool](repeating: false, count: owners)
        oldOrder = []
        newOrder = []
    }

    /// One row that was at `oldOffset` (`nil`: its id was not there) and is at
    /// `newOffset`; an item that was there changed.
    ///
    /// The arrays of `Int`s come from ``_SingleOffsets`` (the owner `0` and, in a short
    /// list, the offsets), and `[true]` and `[false]` share one storage each, so that a
    /// one-row change in a short list allocates no array here.
    @inlinable init(oneRowFrom oldOffset: Int?, to newOffset: Int) {
        oldOffsets = _SingleOffsets.array(oldOffset ?? -1)
        newOffsets = _SingleOffsets.array(newOffset)
        isChanged = oldOffset != nil ? Self._oneTrue : Self._oneFalse
        oldOrder = oldOffset == nil ? [] : _SingleOffsets.array(0)
        newOrder = _SingleOffsets.array(0)
    }

    @usableFromInline static let _oneTrue = [true]
    @usableFromInline static let _oneFalse = [false]
}

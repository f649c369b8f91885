/// The `add` and `remove` calls made between two batches, in call order.
@usableFromInline struct _EditRun<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline enum Call: Sendable {
        case add([Item])
        case remove([Item.ID])
    }

    @usableFromInline var calls: [Call] = []
    /// The number of items and ids named by the calls.
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { calls.isEmpty }

    @inlinable mutating func add(_ items: [Item]) {
        calls.append(.add(items))
        count += items.count
    }

    @inlinable mutating func remove(_ ids: [Item.ID]) {
        calls.append(.remove(ids))
        count += ids.count
    }

    /// The run of `calls[range]`.
    @inlinable func calls(_ range: Range<Int>) -> _EditRun {
        var run = _EditRun()
        for call in calls[range] {
            switch call {
            case .add(let items): run.add(items)
            case .remove(let ids): run.remove(ids)
            }
        }
        return run
    }

    /// How many leading calls name, together, the most rows that still satisfy
    /// `isSmallEnough`; 0 when the first call alone does not.
    ///
    /// - Complexity: O(*c*) for *c* calls.
    @inlinable func leadingCalls(naming isSmallEnough: (Int) -> Bool) -> Int {
        var named = 0, leading = 0
        for call in calls {
            switch call {
            case .add(let items): named += items.count
            case .remove(let ids): named += ids.count
            }
            guard isSmallEnough(named) else { break }
            leading += 1
        }
        return leading
    }
}

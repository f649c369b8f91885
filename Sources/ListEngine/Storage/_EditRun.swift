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

}

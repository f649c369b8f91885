/// The `add` and `remove` calls made between two batches, in call order.
///
/// The first call is kept apart from the rest, so that a run of one call (the common
/// case: one `add` between two batches) allocates no array of its own.
@usableFromInline struct _EditRun<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline enum Call: Sendable {
        case add([Item])
        case remove([Item.ID])
    }

    /// The first call, or `nil` for an empty run.
    @usableFromInline var firstCall: Call? = nil
    /// The calls after the first, in order.
    @usableFromInline var laterCalls: [Call] = []
    /// The number of items and ids named by the calls.
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { firstCall == nil }

    /// The number of calls.
    @inlinable var callCount: Int { firstCall == nil ? 0 : 1 + laterCalls.count }

    /// Calls `body` with every call, in order, without making an array of them.
    @inlinable func forEachCall(_ body: (Call) throws -> Void) rethrows {
        guard let firstCall else { return }
        try body(firstCall)
        for call in laterCalls { try body(call) }
    }

    @inlinable mutating func add(_ items: [Item]) {
        _append(.add(items))
        count += items.count
    }

    @inlinable mutating func remove(_ ids: [Item.ID]) {
        _append(.remove(ids))
        count += ids.count
    }

    @inlinable mutating func _append(_ call: Call) {
        if firstCall == nil { firstCall = call } else { laterCalls.append(call) }
    }
}

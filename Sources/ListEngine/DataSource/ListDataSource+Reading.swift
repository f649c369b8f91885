extension ListDataSource {
    /// The latest delivered snapshot: the newest version every attached renderer has
    /// rendered (or the newest computed version when no renderer has rendered yet).
    ///
    /// A renderer that reads the data source while rendering sees rows consistent with
    /// what it has applied. To wait for your own mutations, use ``flush()``.
    /// - Complexity: O(*r*) for *r* renderers.
    @inlinable public var snapshot: ListSnapshot<Item> {
        _shared.withLock { $0.ledger.delivered }
    }

    /// The number of rows in ``snapshot``.
    @inlinable public var count: Int { snapshot.count }

    /// The row at `position` of ``snapshot``.
    ///
    /// - Precondition: `position` is in `0..<count`.
    /// - Complexity: O(log *n*).
    @inlinable public subscript(position: Int) -> Item { snapshot[position] }

    /// The row with `id` in ``snapshot``, or `nil`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable public subscript(id id: Item.ID) -> Item? { snapshot[id: id] }

    /// The offset of the row with `id` in ``snapshot``, or `nil`.
    ///
    /// - Complexity: O(log *n*) comparisons.
    @inlinable public func index(of id: Item.ID) -> Int? { snapshot.index(of: id) }
}

extension ListDataSource {
    /// The latest delivered snapshot.
    ///
    /// - Inside ``ListRenderer/render(_:)``, this is the `new` snapshot of the batch being
    ///   rendered, for every renderer: a renderer that reads the data source while it
    ///   applies a batch sees exactly the rows it is applying (its attach batch included),
    ///   whatever the other renderers have rendered.
    /// - Elsewhere, it is the newest version that every renderer has rendered, or the
    ///   newest computed version when no renderer is attached. A renderer counts from the
    ///   moment its attach batch is sent, as if it had rendered it: that batch holds the
    ///   newest computed version, so attaching a renderer never takes reads back to an
    ///   older version.
    ///
    /// To wait for your own mutations, use ``flush()``.
    /// - Complexity: O(1).
    @inlinable public var snapshot: ListSnapshot<Item> {
        if let rendering = _RenderingContext.snapshot(of: ObjectIdentifier(self), as: Item.self) {
            return rendering
        }
        return _shared.withLock { $0.ledger.delivered }
    }

    /// The number of rows in ``snapshot``.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { snapshot.count }

    /// The row at `position` of ``snapshot``.
    ///
    /// - Parameter position: an offset in `0..<count`.
    /// - Returns: the item at that row of ``snapshot``.
    /// - Precondition: `position` is in `0..<count`.
    /// - Complexity: O(log *n*) for *n* rows.
    @inlinable public subscript(position: Int) -> Item { snapshot[position] }

    /// The row with `id` in ``snapshot``, or `nil`.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: the item with `id`, or `nil` if ``snapshot`` does not hold it.
    /// - Complexity: O(log *n*) for *n* rows.
    @inlinable public subscript(id id: Item.ID) -> Item? { snapshot[id: id] }

    /// The offset of the row with `id` in ``snapshot``, or `nil`.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: the offset of the row with `id` in ``snapshot``, or `nil`.
    /// - Complexity: O(log *n*) when no row ties with the item under the order;
    ///   O((1 + *t*) log *n*) for *t* tied rows (see ``ListSnapshot/index(of:)``).
    @inlinable public func index(of id: Item.ID) -> Int? { snapshot.index(of: id) }
}

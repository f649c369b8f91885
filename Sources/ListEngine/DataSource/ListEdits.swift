/// Several edits of a list, decided on its latest state and delivered as one batch: the
/// view of the list that ``ListDataSource/perform(_:)`` and
/// ``SectionedListDataSource/perform(_:)`` hand their closure.
///
/// Inside the closure the list holds every call made before `perform`, and every edit
/// made so far in the closure: ``count``, ``subscript(offset:)`` and ``offset(of:)``
/// read exactly that. The edits mean what the calls of the same names mean (see
/// ``ListDataSource``), applied in order, one element at a time. Consecutive
/// ``add(_:)`` and ``remove(ids:)`` calls are applied together, on the same bulk paths
/// as consecutive calls of the list (a read, or another kind of edit, applies them
/// first), so a `perform` costs what the single calls it replaces cost.
///
/// A `ListEdits` is valid only while the closure runs; it runs on the list's diff queue,
/// so it must not block, and must not wait for the list (a `flush()` there would never
/// return).
///
/// ```swift
/// // An app's "move these, delete those" as one animation: one batch, one version.
/// list.perform { edits in
///     edits.update(id: "b") { $0.index = 0 }         // moves b to the top
///     edits.remove(ids: ["c", "d"])
///     if edits.count > 100 { edits.remove { $0.isArchived } }
/// }
/// ```
public struct ListEdits<Item: Hashable & DataSourceComparable> {
    @usableFromInline let _engine: _DiffEngine<Item>
    /// Consecutive `add` and `remove` calls not yet applied.
    @usableFromInline var _run = _EditRun<Item>()
    @usableFromInline let _scope: _EditScope

    @inlinable init(_engine: _DiffEngine<Item>, scope: _EditScope) {
        self._engine = _engine
        self._scope = scope
    }

    /// The number of rows, with the edits made so far.
    ///
    /// - Complexity: O(1), after applying the pending `add` and `remove` calls.
    @inlinable public var count: Int {
        mutating get {
            _applyPending()
            return _engine.storage.count
        }
    }

    /// The row at `offset`, with the edits made so far.
    ///
    /// - Parameter offset: an offset in `0..<count`.
    /// - Complexity: O(log *n*), after applying the pending `add` and `remove` calls.
    @inlinable public subscript(offset offset: Int) -> Item {
        mutating get {
            _applyPending()
            precondition(offset >= 0 && offset < _engine.storage.count, "ListEdits offset \(offset) out of range 0..<\(_engine.storage.count)")
            return _engine.storage[offset]
        }
    }

    /// The offset of the row with id `id`, with the edits made so far; `nil` when no
    /// row has it.
    ///
    /// - Complexity: O(log *n*), after applying the pending `add` and `remove` calls.
    @inlinable public mutating func offset(of id: Item.ID) -> Int? {
        _applyPending()
        return _engine.storage.position(of: id)
    }

    /// Adds `items`, with the meaning of ``ListDataSource/add(_:)-(Sequence<Item>)``.
    ///
    /// - Complexity: O(*k*) to note *k* items; they are placed with the next read, the
    ///   next edit of another kind, or at the end of `perform`, as one call would be.
    @inlinable public mutating func add(_ items: some Sequence<Item>) {
        _scope.check()
        _run.add(Array(items))
    }

    /// Removes the rows with these ids (unknown ids are ignored), with the meaning of
    /// ``ListDataSource/remove(ids:)``.
    ///
    /// - Complexity: O(*k*) to note *k* ids; they are removed with the next read, the
    ///   next edit of another kind, or at the end of `perform`.
    @inlinable public mutating func remove(ids: some Sequence<Item.ID>) {
        _scope.check()
        _run.remove(Array(ids))
    }

    /// Removes the rows `shouldBeRemoved` selects among the rows as the edits so far
    /// left them, with the meaning of ``ListDataSource/remove(where:)``.
    ///
    /// - Complexity: O(*n*) calls of the predicate, plus O(*k* log *n*) for *k* removed rows.
    @inlinable public mutating func remove(where shouldBeRemoved: (Item) -> Bool) {
        _applyPending()
        var ids: [Item.ID] = []
        for row in _engine.storage.rows where shouldBeRemoved(row) { ids.append(row.id) }
        _run.remove(ids)
    }

    /// Changes the row with id `id` as the edits so far left it, and places the result,
    /// with the meaning of ``ListDataSource/update(id:_:)``; nothing happens when no row
    /// has the id. The change must keep the id.
    ///
    /// - Complexity: O(log *n*) plus the change.
    @inlinable public mutating func update(id: Item.ID, _ change: (inout Item) -> Void) {
        _applyPending()
        guard var item = _engine.storage[id: id] else { return }
        change(&item)
        precondition(item.id == id, "ListEdits.update(id:_:) changed the id of \(id) to \(item.id); a change must keep the id")
        _run.add([item])
    }

    /// Applies the pending `add` and `remove` calls to the list.
    @inlinable mutating func _applyPending() {
        _scope.check()
        guard !_run.isEmpty else { return }
        let run = _run
        _run = _EditRun()
        _engine.apply(run, joiningLateCalls: nil)
    }
}

/// Whether a ``ListEdits`` may still be used: only while its `perform` closure runs.
@usableFromInline final class _EditScope {
    @usableFromInline var isOpen = true

    @inlinable init() {}

    @inlinable func check() {
        precondition(isOpen, "a ListEdits was used after its perform closure returned")
    }
}

/// An immutable version of a list's rows.
///
/// A snapshot is a `RandomAccessCollection` of items in row order, tagged with the
/// version of the list it was taken from. Snapshots share structure with each other, so
/// holding the `old` and `new` snapshots of every batch costs O(log *n*) per changed
/// row, not a copy of the list.
///
/// ```swift
/// let snapshot = await source.flush()
/// if let row = snapshot.index(of: "p00042") { print(snapshot[row]) }
/// ```
public struct ListSnapshot<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline let _storage: _ListStorage<Item>

    /// The list version this snapshot shows. Version 0 is the empty list a data source
    /// starts from; every delivered batch increments it by one.
    public let version: Int

    @inlinable init(_storage: _ListStorage<Item>, version: Int) {
        self._storage = _storage
        self.version = version
    }

    /// The empty snapshot at version 0, ordered by `comparator`.
    @inlinable static func empty(comparator: @escaping _ListStorage<Item>.Comparator) -> Self {
        Self(_storage: _ListStorage(comparator: comparator), version: 0)
    }

    /// The offset of the row with `id`, or `nil` if the snapshot does not hold it.
    ///
    /// - Complexity: O(log *n*) comparisons (plus the rows tied with the item).
    @inlinable public func index(of id: Item.ID) -> Int? { _storage.position(of: id) }

    /// Whether the snapshot holds a row with `id`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable public func contains(id: Item.ID) -> Bool { _storage[id: id] != nil }

    /// The row with `id`, or `nil`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable public subscript(id id: Item.ID) -> Item? { _storage[id: id] }
}

extension ListSnapshot: RandomAccessCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { _storage.count }
    @inlinable public var count: Int { _storage.count }
    @inlinable public var isEmpty: Bool { _storage.count == 0 }

    /// The row at `position`.
    ///
    /// - Complexity: O(log *n*); iterate the snapshot to visit rows in O(1) each.
    @inlinable public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < _storage.count, "snapshot offset \(position) out of range 0..<\(_storage.count)")
        return _storage[position]
    }

    /// Iterates the rows in order.
    ///
    /// - Complexity: O(1) amortized per row.
    @inlinable public func makeIterator() -> Iterator { Iterator(base: _storage.rows.makeIterator()) }

    /// An iterator over a snapshot's rows in order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: _CountedBTree<Item>.Iterator

        @inlinable init(base: _CountedBTree<Item>.Iterator) {
            self.base = base
        }
        @inlinable public mutating func next() -> Item? { base.next() }
    }
}

extension ListSnapshot: CustomStringConvertible {
    @inlinable public var description: String { "ListSnapshot(version: \(version), \(Array(self)))" }
}

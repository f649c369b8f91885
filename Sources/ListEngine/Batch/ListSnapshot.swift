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
    /// starts from (one created with rows starts at version 1); every delivered batch
    /// increments it by one.
    public let version: Int

    /// The sections of a sectioned list's rows (see ``_Sectioning``); `nil` for a list
    /// that is not sectioned, and for the empty version 0.
    @usableFromInline let _sections: _AnySections?

    @inlinable init(_storage: _ListStorage<Item>, version: Int, sections: _AnySections? = nil) {
        self._storage = _storage
        self.version = version
        self._sections = sections
    }

    /// The empty snapshot at version 0, ordered by `comparator`.
    @inlinable static func empty(comparator: _RowOrder<Item>) -> Self {
        Self(_storage: _ListStorage(comparator: comparator), version: 0)
    }

    /// The offset of the row with `id`, or `nil` if the snapshot does not hold it.
    ///
    /// The id index finds the item; a binary search by the list's order then finds its
    /// row, reading the rows the order ties with it (neither before nor after it) one by
    /// one.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: the offset of the row with `id`, or `nil`.
    /// - Complexity: O((1 + *t*) log *n*) for *t* rows tied with the item, *n* = rows:
    ///   O(log *n* + *t*) comparisons and one O(log *n*) read per tied row. O(log *n*) when
    ///   the id is absent. O(*n*) when the comparator is not a strict weak order and the
    ///   search misses the row, which is then found by a scan.
    @inlinable public func index(of id: Item.ID) -> Int? { _storage.position(of: id) }

    /// Whether the snapshot holds a row with `id`.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: `true` if a row has `id`.
    /// - Complexity: O(log *n*).
    @inlinable public func contains(id: Item.ID) -> Bool { _storage[id: id] != nil }

    /// The row with `id`, or `nil`.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: the item with `id`, or `nil` if the snapshot does not hold it.
    /// - Complexity: O(log *n*).
    @inlinable public subscript(id id: Item.ID) -> Item? { _storage[id: id] }
}

extension ListSnapshot: RandomAccessCollection {
    /// A row's offset: 0 for the first row.
    public typealias Index = Int
    /// The valid offsets, `0..<count`.
    public typealias Indices = Range<Int>

    /// The offset of the first row: always 0.
    ///
    /// - Complexity: O(1).
    @inlinable public var startIndex: Int { 0 }
    /// The offset after the last row: the number of rows.
    ///
    /// - Complexity: O(1).
    @inlinable public var endIndex: Int { _storage.count }
    /// The number of rows.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { _storage.count }
    /// Whether the snapshot has no rows.
    ///
    /// - Complexity: O(1).
    @inlinable public var isEmpty: Bool { _storage.count == 0 }

    /// The row at `position`.
    ///
    /// - Parameter position: an offset in `0..<count`.
    /// - Returns: the item at that row.
    /// - Complexity: O(log *n*); iterate the snapshot to visit rows in O(1) each.
    @inlinable public subscript(position: Int) -> Item {
        precondition(position >= 0 && position < _storage.count, "snapshot offset \(position) out of range 0..<\(_storage.count)")
        return _storage[position]
    }

    /// Iterates the rows in order.
    ///
    /// - Returns: an iterator that starts at the first row.
    /// - Complexity: O(1) amortized per row.
    @inlinable public func makeIterator() -> Iterator { Iterator(base: _storage.rows.makeIterator()) }

    /// An iterator over a snapshot's rows in order.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var base: _CountedBTree<Item>.Iterator

        @inlinable init(base: _CountedBTree<Item>.Iterator) {
            self.base = base
        }
        /// Advances to the next row.
        ///
        /// - Returns: the next row, or `nil` after the last one.
        /// - Complexity: O(1) amortized.
        @inlinable public mutating func next() -> Item? { base.next() }
    }
}

extension ListSnapshot: CustomStringConvertible {
    /// The version and the rows, for debugging.
    ///
    /// - Complexity: O(*n*).
    @inlinable public var description: String { "ListSnapshot(version: \(version), \(Array(self)))" }
}

/// An immutable version of a sectioned list: its rows, flat, and the sections they form.
///
/// The rows are in section-major order: by section key, then by the list's order. A
/// section exists exactly while it holds a row. Like ``ListSnapshot``, a sectioned
/// snapshot shares structure with the others, so holding the `old` and `new` of every
/// batch costs O(log *n*) per changed row and O(log *s*) per changed section.
///
/// ```swift
/// let snapshot = await inbox.flush()
/// for (offset, section) in snapshot.sections.enumerated() {
///     print(section.key, snapshot[ListIndexPath(section: offset, item: 0)])
/// }
/// ```
public struct SectionedSnapshot<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: Sendable {
    /// All rows, flat, in section-major order.
    public let rows: ListSnapshot<Item>
    /// The section keys, ascending.
    @usableFromInline let _keys: _CountedBTree<Section>
    /// Each item's section key.
    @usableFromInline let _sectionOf: @Sendable (Item) -> Section

    @inlinable init(rows: ListSnapshot<Item>, keys: _CountedBTree<Section>, sectionOf: @escaping @Sendable (Item) -> Section) {
        self.rows = rows
        self._keys = keys
        self._sectionOf = sectionOf
    }

    /// The list version this snapshot shows; equal to the flat rows' version.
    ///
    /// - Complexity: O(1).
    @inlinable public var version: Int { rows.version }

    /// The sections, ascending by key, each non-empty.
    ///
    /// - Complexity: O(1).
    @inlinable public var sections: Sections { Sections(snapshot: self) }

    /// The row at `indexPath`.
    ///
    /// - Parameter indexPath: a valid index path of this snapshot.
    /// - Returns: the item there.
    /// - Complexity: O(log *n* + log *s*) for *n* rows and *s* sections.
    @inlinable public subscript(indexPath: ListIndexPath) -> Item {
        precondition(indexPath.section >= 0 && indexPath.section < _keys.count, "section \(indexPath.section) out of range 0..<\(_keys.count)")
        let section = sections[indexPath.section]
        precondition(indexPath.item >= 0 && indexPath.item < section.count, "item \(indexPath.item) out of range 0..<\(section.count) in section \(indexPath.section)")
        return rows[section.rows.lowerBound + indexPath.item]
    }

    /// The index path of the row with `id`, or `nil` if the snapshot does not hold it.
    ///
    /// - Parameter id: the id to look for.
    /// - Returns: the row's index path, or `nil`.
    /// - Complexity: O(log *n* + log *s*), as ``ListSnapshot/index(of:)`` plus one search
    ///   of the sections.
    @inlinable public func indexPath(of id: Item.ID) -> ListIndexPath? {
        guard let offset = rows.index(of: id) else { return nil }
        return _indexPath(ofRowAt: offset)
    }

    /// The offset of the section with `key`, or `nil` if no row has that key.
    ///
    /// - Parameter key: a section key.
    /// - Returns: the section's offset in ``sections``, or `nil`.
    /// - Complexity: O(log *s*).
    @inlinable public func sectionIndex(of key: Section) -> Int? {
        let index = _keys.partitioningIndex { !($0 < key) }
        return index < _keys.count && _keys[index] == key ? index : nil
    }

    /// The index path of the row at flat offset `offset` of ``rows``.
    ///
    /// - Parameter offset: an offset in `0..<rows.count`.
    /// - Returns: the row's section and its offset inside the section.
    /// - Complexity: O(log *n* + log *s*).
    @inlinable public func indexPath(ofRowAt offset: Int) -> ListIndexPath {
        precondition(offset >= 0 && offset < rows.count, "row offset \(offset) out of range 0..<\(rows.count)")
        return _indexPath(ofRowAt: offset)
    }

    /// The flat offset in ``rows`` of the row at `indexPath`.
    ///
    /// - Parameter indexPath: a valid index path of this snapshot.
    /// - Returns: the row's offset in the flat rows.
    /// - Complexity: O(log *n* + log *s*).
    @inlinable public func rowOffset(of indexPath: ListIndexPath) -> Int {
        precondition(indexPath.section >= 0 && indexPath.section < _keys.count, "section \(indexPath.section) out of range 0..<\(_keys.count)")
        let section = sections[indexPath.section]
        precondition(indexPath.item >= 0 && indexPath.item < section.count, "item \(indexPath.item) out of range 0..<\(section.count) in section \(indexPath.section)")
        return section.rows.lowerBound + indexPath.item
    }

    /// The index path of the row at flat offset `offset`, unchecked.
    ///
    /// - Complexity: O(log *n* + log *s*).
    @inlinable func _indexPath(ofRowAt offset: Int) -> ListIndexPath {
        let key = _sectionOf(rows[offset])
        let section = _keys.partitioningIndex { !($0 < key) }
        return ListIndexPath(section: section, item: offset - _firstRow(of: key))
    }

    /// The flat offset of the first row whose key is not below `key`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable func _firstRow(of key: Section) -> Int {
        rows._firstRow(ofSection: key, _sectionOf)
    }
}

extension ListSnapshot {
    /// The offset of the first row whose section is not before `key`, for rows in
    /// section-major order.
    ///
    /// - Complexity: O(log *n*) calls of `sectionOf`.
    @inlinable func _firstRow<Section: Comparable>(ofSection key: Section, _ sectionOf: (Item) -> Section) -> Int {
        _storage.rows.partitioningIndex { !(sectionOf($0) < key) }
    }
}

extension SectionedSnapshot {
    /// The sections of a ``SectionedSnapshot``, ascending by key.
    ///
    /// Each section's rows are found when it is read, by one search of the flat rows
    /// for where its key begins and one for where the next begins.
    public struct Sections: RandomAccessCollection, Sendable {
        /// A section's offset: 0 for the first section.
        public typealias Index = Int
        /// The valid offsets, `0..<count`.
        public typealias Indices = Range<Int>

        @usableFromInline let snapshot: SectionedSnapshot

        @inlinable init(snapshot: SectionedSnapshot) {
            self.snapshot = snapshot
        }

        /// The offset of the first section: always 0.
        ///
        /// - Complexity: O(1).
        @inlinable public var startIndex: Int { 0 }
        /// The number of sections.
        ///
        /// - Complexity: O(1).
        @inlinable public var endIndex: Int { snapshot._keys.count }

        /// The section at `position`.
        ///
        /// - Parameter position: an offset in `0..<count`.
        /// - Returns: the section's key and rows.
        /// - Complexity: O(log *n* + log *s*).
        @inlinable public subscript(position: Int) -> ListSection<Section> {
            precondition(position >= 0 && position < endIndex, "section offset \(position) out of range 0..<\(endIndex)")
            let key = snapshot._keys[position]
            let start = snapshot._firstRow(of: key)
            let end = position + 1 < endIndex ? snapshot._firstRow(of: snapshot._keys[position + 1]) : snapshot.rows.count
            return ListSection(key: key, rows: start ..< end)
        }

        /// The section keys, ascending.
        ///
        /// - Complexity: O(*s*).
        @inlinable public var keys: [Section] { Array(snapshot._keys) }
    }
}

extension SectionedSnapshot: CustomStringConvertible {
    /// The version and each section's key and rows, for debugging.
    ///
    /// - Complexity: O(*n* + *s* log *n*).
    public var description: String {
        let parts = sections.map { section in "\(section.key): \(section.rows.map { rows[$0] })" }
        return "SectionedSnapshot(version: \(version), [\(parts.joined(separator: ", "))])"
    }
}

/// The place of a row in a sectioned list: its section's offset, and its offset inside
/// that section.
///
/// Index paths are ordered by section, then by item, which is the order of the rows in
/// the list.
///
/// ```swift
/// let first = ListIndexPath(section: 0, item: 0)
/// first < ListIndexPath(section: 1, item: 0)   // true
/// ```
public struct ListIndexPath: Hashable, Comparable, Sendable {
    /// The section's offset among the list's sections.
    public var section: Int
    /// The row's offset inside its section.
    public var item: Int

    /// Creates an index path.
    ///
    /// - Parameters:
    ///   - section: the section's offset among the list's sections.
    ///   - item: the row's offset inside the section.
    /// - Complexity: O(1).
    @inlinable public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Whether `lhs` comes before `rhs`: an earlier section, or the same section and an
    /// earlier item.
    ///
    /// - Complexity: O(1).
    @inlinable public static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }
}

extension ListIndexPath: CustomStringConvertible {
    /// `section.item`, for debugging.
    public var description: String { "\(section).\(item)" }
}

/// A row of a sectioned list that changed place: where it was in the old list and
/// where it is in the new one.
public struct ListIndexPathMove: Hashable, Sendable {
    /// The row's index path in the batch's `old` snapshot.
    public let from: ListIndexPath
    /// The row's index path in the batch's `new` snapshot.
    public let to: ListIndexPath

    /// Creates a move.
    ///
    /// - Parameters:
    ///   - from: the row's index path in the old list.
    ///   - to: the row's index path in the new list.
    /// - Complexity: O(1).
    @inlinable public init(from: ListIndexPath, to: ListIndexPath) {
        self.from = from
        self.to = to
    }
}

extension ListIndexPathMove: CustomStringConvertible {
    /// `from→to`, for debugging.
    public var description: String { "\(from)→\(to)" }
}

/// One section of a sectioned list: its key and where its rows are in the flat list.
public struct ListSection<Section: Hashable & Comparable & Sendable>: Hashable, Sendable {
    /// The key every row of the section has.
    public let key: Section
    /// The section's rows, as offsets into the flat rows (``SectionedSnapshot/rows``).
    public let rows: Range<Int>

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - key: the section's key.
    ///   - rows: the section's rows as offsets into the flat rows.
    /// - Complexity: O(1).
    @inlinable public init(key: Section, rows: Range<Int>) {
        self.key = key
        self.rows = rows
    }

    /// The number of rows in the section; never 0 for a section of a snapshot.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { rows.count }
}

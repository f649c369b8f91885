/// How a sectioned list's sections and items become wire sections and rows: a key and a
/// title per section, and a ``WebListFormat`` for the rows.
///
/// Both ``SectionedWebListRenderer`` and ``SectionedWebListHub`` turn sectioned batches
/// and snapshots into messages with a sectioned format.
///
/// ```swift
/// let format = SectionedWebListFormat<LeaderboardTier, Player>(
///     rows: WebListFormat { player in "<span class=\"name\">\(player.name)</span>" },
///     key: { tier in "\(tier)" },
///     title: { tier in tier.name }
/// )
/// let message = format.message(for: batch)
/// ```
public struct SectionedWebListFormat<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: Sendable {
    /// How items become wire rows.
    public let rows: WebListFormat<Item>
    /// The wire key of a section: the same string for equal keys, distinct strings for
    /// distinct ones. Clients key section elements by it (`data-key`).
    public let sectionKey: @Sendable (Section) -> String
    /// The title of a section, plain text (the client shows it as text, not markup).
    public let sectionTitle: @Sendable (Section) -> String

    /// Creates a sectioned format.
    ///
    /// - Parameters:
    ///   - rows: how items become wire rows.
    ///   - key: the wire key of a section: the same string for equal keys, and distinct
    ///     strings for distinct ones.
    ///   - title: the title of a section, as plain text; the client shows it with
    ///     `textContent`, so it needs no escaping.
    /// - Complexity: O(1).
    public init(
        rows: WebListFormat<Item>,
        key: @escaping @Sendable (Section) -> String,
        title: @escaping @Sendable (Section) -> String
    ) {
        self.rows = rows
        sectionKey = key
        sectionTitle = title
    }

    /// The `batch` message for `batch`: its `SectionedChangeBatch.steps`, with
    /// `"sectioned":true`, from `old.version` to `new.version`.
    ///
    /// Only inserted and reloaded rows and inserted sections are formatted, so the
    /// message for a one-row update does not grow with the size of the list.
    ///
    /// - Parameter batch: the batch to send.
    /// - Returns: a `.sectionedBatch` message with one step per step of `batch`.
    /// - Complexity: that of `SectionedChangeBatch.steps`, O(*c* log *n* + *c* log *s*)
    ///   for *c* changes, *n* rows and *s* sections, plus formatting the inserted and
    ///   reloaded rows and the inserted sections.
    public func message(for batch: SectionedChangeBatch<Section, Item>) -> WebListMessage {
        let steps: [WebListSectionedStep] = batch.steps.map { step in
            switch step {
            case .insertSection(let key, let at): .insertSection(key: sectionKey(key), title: sectionTitle(key), at: at)
            case .removeSection(let at): .removeSection(at: at)
            case .remove(let at): .remove(at: at)
            case .insert(let item, let at): .insert(rows.row(item), at: at)
            case .move(let from, let to): .move(from: from, to: to)
            case .reload(let item, let at): .reload(rows.row(item), at: at)
            }
        }
        return .sectionedBatch(from: batch.old.version, to: batch.new.version, steps: steps)
    }

    /// The sectioned `snapshot` message for `snapshot`: every section, in order, each with
    /// its rows, in order.
    ///
    /// - Parameter snapshot: the list to send.
    /// - Returns: a `.sectionedSnapshot` message at `snapshot.version`.
    /// - Complexity: O(*n* + *s* log *n*): the rows are read in one pass and formatted.
    public func snapshotMessage(for snapshot: SectionedSnapshot<Section, Item>) -> WebListMessage {
        var items = snapshot.rows.makeIterator()
        let sections = snapshot.sections.map { section in
            var rows: [WebListRow] = []
            rows.reserveCapacity(section.count)
            for _ in 0 ..< section.count {
                guard let item = items.next() else { preconditionFailure("a section holds more rows than the list") }
                rows.append(self.rows.row(item))
            }
            return WebListSection(key: sectionKey(section.key), title: sectionTitle(section.key), items: rows)
        }
        return .sectionedSnapshot(version: snapshot.version, sections: sections)
    }
}

extension SectionedWebListFormat where Section: CustomStringConvertible {
    /// Creates a sectioned format whose section keys and titles are the keys' text,
    /// `key.description`.
    ///
    /// - Parameter rows: how items become wire rows.
    /// - Complexity: O(1).
    public init(rows: WebListFormat<Item>) {
        self.init(rows: rows, key: { $0.description }, title: { $0.description })
    }
}

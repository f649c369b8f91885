/// How a list's items become wire rows: an id string and content HTML per item.
///
/// Both ``WebListRenderer`` and ``WebListHub`` turn batches and snapshots into messages
/// with a format.
///
/// ```swift
/// let format = WebListFormat<Player> { player in
///     "<span class=\"name\">\(player.name)</span> <b>\(player.score)</b>"   // name is escaped
/// }
/// let message = format.message(for: batch)
/// ```
public struct WebListFormat<Item: Hashable & DataSourceComparable>: Sendable {
    /// The wire id of an item id. Distinct ids must give distinct strings.
    public let rowID: @Sendable (Item.ID) -> String
    /// The content of a row.
    public let rowHTML: @Sendable (Item) -> HTML

    /// Creates a format.
    ///
    /// - Parameters:
    ///   - id: the wire id of an item id; must be injective.
    ///   - html: the content of a row; text interpolated into an ``HTML`` literal is escaped.
    /// - Complexity: O(1).
    public init(id: @escaping @Sendable (Item.ID) -> String, html: @escaping @Sendable (Item) -> HTML) {
        rowID = id
        rowHTML = html
    }

    /// The wire row of `item`.
    ///
    /// - Parameter item: the item to format.
    /// - Returns: the row with the item's wire id and its content markup.
    /// - Complexity: O(1), plus one call each of ``rowID`` and ``rowHTML``.
    public func row(_ item: Item) -> WebListRow {
        WebListRow(id: rowID(item.id), html: rowHTML(item).markup)
    }

    /// The `batch` message for `batch`: its ``ChangeBatch/steps`` from `old.version` to
    /// `new.version`.
    ///
    /// Only inserted and reloaded rows are formatted, so the message for a one-row update
    /// does not grow with the size of the list.
    ///
    /// Clients key rows by the exact wire id. A reloaded item whose id equals the old
    /// one's but is written differently (`"\u{E9}"` and `"e\u{301}"` are equal `String`s;
    /// `0.0` and `-0.0` equal `Double`s) is sent as a remove and an insert, so the client
    /// holds the row under its new wire id.
    /// - Parameter batch: the batch to send.
    /// - Returns: a `batch` message with one step per step of `batch`, or two for a
    ///   reload whose wire id changed.
    /// - Complexity: O(*c* log *n*) for *c* changes in a list of *n* rows, plus formatting
    ///   the inserted and reloaded rows and the old ids of the reloaded ones.
    public func message(for batch: ChangeBatch<Item>) -> WebListMessage {
        var steps: [WebListStep] = []
        steps.reserveCapacity(batch.steps.count)
        for step in batch.steps {
            switch step {
            case .remove(let at): steps.append(.remove(at: at))
            case .insert(let item, let at): steps.append(.insert(row(item), at: at))
            case .move(let from, let to): steps.append(.move(from: from, to: to))
            case .reload(let item, let at):
                let reloaded = row(item)
                if let old = batch.old[id: item.id], !rowID(old.id).unicodeScalars.elementsEqual(reloaded.id.unicodeScalars) {
                    steps.append(.remove(at: at))
                    steps.append(.insert(reloaded, at: at))
                } else {
                    steps.append(.reload(reloaded, at: at))
                }
            }
        }
        return .batch(from: batch.old.version, to: batch.new.version, steps: steps)
    }

    /// The `snapshot` message for `snapshot`: every row, in order.
    ///
    /// - Parameter snapshot: the rows to send.
    /// - Returns: a `snapshot` message at `snapshot.version`.
    /// - Complexity: O(*n*) rows formatted.
    public func snapshotMessage(for snapshot: ListSnapshot<Item>) -> WebListMessage {
        .snapshot(version: snapshot.version, items: snapshot.map(row))
    }
}

extension WebListFormat where Item.ID: LosslessStringConvertible {
    /// Creates a format whose wire ids are the item ids' text (`String(id)`).
    ///
    /// - Parameter html: the content of a row; text interpolated into an ``HTML`` literal
    ///   is escaped.
    /// - Complexity: O(1).
    public init(html: @escaping @Sendable (Item) -> HTML) {
        self.init(id: { String($0) }, html: html)
    }
}

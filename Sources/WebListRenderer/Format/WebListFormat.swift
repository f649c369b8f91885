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
    /// The wire id of an item id.
    ///
    /// Clients key rows by the exact wire id, and a list keeps one row per id under the
    /// id's `==`, whose spelling may change while the row stays (an id re-added in
    /// another spelling that is `==` to it). So equal ids must give the same string, and
    /// distinct ids distinct strings.
    public let rowID: @Sendable (Item.ID) -> String
    /// The content of a row.
    public let rowHTML: @Sendable (Item) -> HTML

    /// Creates a format.
    ///
    /// - Parameters:
    ///   - id: the wire id of an item id: the same string for equal ids, and distinct
    ///     strings for distinct ones.
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

    /// The `batch` message for `batch`: its `ChangeBatch.steps` from `old.version` to
    /// `new.version`.
    ///
    /// Only inserted and reloaded rows are formatted, so the message for a one-row update
    /// does not grow with the size of the list.
    /// - Parameter batch: the batch to send.
    /// - Returns: a `batch` message with one step per step of `batch`.
    /// - Complexity: O(*c* log *n*) for *c* changes in a list of *n* rows, plus formatting
    ///   the inserted and reloaded rows.
    public func message(for batch: ChangeBatch<Item>) -> WebListMessage {
        let steps: [WebListStep] = batch.steps.map { step in
            switch step {
            case .remove(let at): .remove(at: at)
            case .insert(let item, let at): .insert(row(item), at: at)
            case .move(let from, let to): .move(from: from, to: to)
            case .reload(let item, let at): .reload(row(item), at: at)
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

extension WebListFormat where Item.ID: CustomStringConvertible {
    /// Creates a format whose wire ids are the item ids' text, `id.description`.
    ///
    /// This covers `Int` and the other `LosslessStringConvertible` ids (whose
    /// `String(id)` is their description), and `Foundation.UUID`, whose description is
    /// its `uuidString`.
    ///
    /// The description must be the same text for equal ids and different text for
    /// distinct ones. Floating-point ids break the first rule (`0.0 == -0.0`, described
    /// as `"0.0"` and `"-0.0"`), and a description written for display, which may leave
    /// out part of the id, can break the second: give such ids a format made with
    /// ``init(id:html:)``. String ids have a format of their own, which normalizes them.
    /// - Parameter html: the content of a row; text interpolated into an ``HTML`` literal
    ///   is escaped.
    /// - Complexity: O(1); each wire id costs one call of `description`.
    public init(html: @escaping @Sendable (Item) -> HTML) {
        self.init(id: { $0.description }, html: html)
    }
}

extension WebListFormat where Item.ID == String {
    /// Creates a format whose wire ids are the item ids in Unicode normalization form C.
    ///
    /// Swift's `==` on strings ignores how a character is composed (`"\u{E9}"` and
    /// `"e\u{301}"` are equal), so a list holds one row for both spellings, under the
    /// last one added. The browser compares ids code unit by code unit; one normalized
    /// spelling keeps it holding the row under the id the server names it by.
    /// - Parameter html: the content of a row; text interpolated into an ``HTML`` literal
    ///   is escaped.
    /// - Complexity: O(1); each wire id costs O(*l*) for an id of *l* bytes (ASCII ids
    ///   are passed through as they are).
    public init(html: @escaping @Sendable (Item) -> HTML) {
        self.init(id: { Self.normalizedWireID($0) }, html: html)
    }

    /// `id` in Unicode normalization form C: the same string for every spelling that
    /// `==` calls equal.
    ///
    /// The normalization is the standard library's own, the one `==` compares by, so it
    /// knows the same Unicode version. Foundation's normalization can use older tables
    /// and leave apart spellings that `==` joins, such as the compositions and mark
    /// classes of Unicode 16.
    ///
    /// - Parameter id: an item id.
    /// - Returns: its NFC form; `id` itself when it is ASCII.
    /// - Complexity: O(*l*) for an id of *l* bytes.
    public static func normalizedWireID(_ id: String) -> String {
        if id.utf8.allSatisfy({ $0 < 0x80 }) { return id }
        // `_nfcCodeUnits` is public standard-library API; the underscore marks it as
        // not yet given a final name.
        return String(decoding: id._nfcCodeUnits, as: UTF8.self)
    }
}

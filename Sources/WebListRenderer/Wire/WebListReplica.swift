/// A list rebuilt from wire messages, with the same rules as the browser client's
/// `applyMessage` in `list-client.js`.
///
/// Use it to consume a list stream from Swift (a test, a command-line client, a second
/// server), or to check what a browser would show.
///
/// ```swift
/// var replica = WebListReplica()
/// for await frame in hub.subscribe() {
///     if replica.apply(json: frame.json) != .applied { /* fetch a snapshot */ }
/// }
/// ```
public struct WebListReplica: Hashable, Sendable {
    /// The version of ``rows``; `nil` until a snapshot is applied.
    public private(set) var version: Int?
    /// The rows in display order.
    public private(set) var rows: [WebListRow] = []

    /// Creates an empty replica that waits for a snapshot.
    ///
    /// - Complexity: O(1).
    public init() {}

    /// What ``apply(_:acceptingOlderSnapshot:)`` did with a message.
    public enum Outcome: Hashable, Sendable {
        /// The message was applied.
        case applied
        /// The message is stale (a batch ending at or before ``version``, or an older
        /// snapshot); nothing changed.
        case ignored
        /// A batch that does not start at ``version`` (or no snapshot yet): a snapshot is
        /// needed first. Nothing changed.
        case gap
        /// The message cannot be applied to these rows (offset out of range, a duplicate
        /// id, a reload of the wrong row, malformed JSON). Nothing changed.
        case inconsistent
    }

    /// The ids of ``rows`` in order.
    ///
    /// - Complexity: O(*n*) for *n* rows.
    public var ids: [String] { rows.map(\.id) }

    /// Applies one message; a batch is applied whole or not at all.
    ///
    /// - Parameters:
    ///   - message: the message.
    ///   - acceptingOlderSnapshot: apply a snapshot even when it is older than ``version``
    ///     (after asking for one explicitly).
    /// - Returns: what happened.
    /// - Complexity: O(*n*) for a snapshot of *n* rows; O(*s* · *n*) for a batch of *s* steps.
    @discardableResult
    public mutating func apply(_ message: WebListMessage, acceptingOlderSnapshot: Bool = false) -> Outcome {
        switch message {
        case .snapshot(let newVersion, let items):
            if let version, newVersion < version, !acceptingOlderSnapshot { return .ignored }
            guard Set(items.map(\.id)).count == items.count else { return .inconsistent }
            version = newVersion
            rows = items
            return .applied
        case .batch(let from, let to, let steps):
            guard to > from else { return .inconsistent }
            guard let version else { return .gap }
            if to <= version { return .ignored }
            guard from == version else { return .gap }
            guard let newRows = Self.applying(steps, to: rows) else { return .inconsistent }
            self.version = to
            rows = newRows
            return .applied
        }
    }

    /// Decodes and applies one message; text that is not a message is `.inconsistent`.
    ///
    /// - Parameters:
    ///   - json: the message's JSON text, as a ``WebListFrame`` carries it.
    ///   - acceptingOlderSnapshot: apply a snapshot even when it is older than ``version``
    ///     (after asking for one explicitly).
    /// - Returns: what happened.
    /// - Complexity: O(*j*) to decode *j* bytes of JSON, plus what
    ///   ``apply(_:acceptingOlderSnapshot:)`` costs.
    @discardableResult
    public mutating func apply(json: String, acceptingOlderSnapshot: Bool = false) -> Outcome {
        guard let message = try? WebListMessage(json: json) else { return .inconsistent }
        return apply(message, acceptingOlderSnapshot: acceptingOlderSnapshot)
    }

    private static func applying(_ steps: [WebListStep], to rows: [WebListRow]) -> [WebListRow]? {
        var rows = rows
        var ids = Set(rows.map(\.id))
        for step in steps {
            switch step {
            case .remove(let at):
                guard rows.indices.contains(at) else { return nil }
                ids.remove(rows.remove(at: at).id)
            case .insert(let row, let at):
                guard at >= 0, at <= rows.count, ids.insert(row.id).inserted else { return nil }
                rows.insert(row, at: at)
            case .move(let from, let to):
                guard rows.indices.contains(from), rows.indices.contains(to) else { return nil }
                rows.insert(rows.remove(at: from), at: to)
            case .reload(let row, let at):
                guard rows.indices.contains(at), rows[at].id == row.id else { return nil }
                rows[at] = row
            }
        }
        return rows
    }
}

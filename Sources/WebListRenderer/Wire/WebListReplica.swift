import Foundation

/// A list rebuilt from wire messages, with the same rules as the browser client's
/// `applyMessage` in `list-client.js`.
///
/// Use it to consume a list stream from Swift (a test, a command-line client, a second
/// server), or to check what a browser would show. It applies sectioned messages too:
/// after a sectioned snapshot it holds ``sections`` as well as the flat ``rows``.
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
    /// The rows in display order; for a sectioned list, every section's rows, section
    /// after section.
    public private(set) var rows: [WebListRow] = []
    /// The sections in display order, each with its rows, when the last snapshot was a
    /// sectioned one; `nil` for a flat list.
    public private(set) var sections: [WebListSection]?

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
        /// id, a reload of the wrong row, a section removed while it holds rows, a flat
        /// batch for a sectioned list or the reverse, malformed JSON). Nothing changed.
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
    /// A snapshot replaces the list whatever its kind: a sectioned snapshot makes the
    /// replica sectioned, a flat one makes it flat. A batch applies only to a list of its
    /// kind.
    ///
    /// - Complexity: O(*n*) for a snapshot of *n* rows; O(*s* · *n*) for a batch of *s* steps.
    @discardableResult
    public mutating func apply(_ message: WebListMessage, acceptingOlderSnapshot: Bool = false) -> Outcome {
        switch message {
        case .snapshot(let newVersion, let items):
            if let version, newVersion < version, !acceptingOlderSnapshot { return .ignored }
            guard Set(items.map { _ExactID($0.id) }).count == items.count else { return .inconsistent }
            version = newVersion
            rows = items
            sections = nil
            return .applied
        case .sectionedSnapshot(let newVersion, let newSections):
            if let version, newVersion < version, !acceptingOlderSnapshot { return .ignored }
            let items = newSections.flatMap(\.items)
            guard Set(items.map { _ExactID($0.id) }).count == items.count,
                  Set(newSections.map { _ExactID($0.key) }).count == newSections.count else { return .inconsistent }
            version = newVersion
            rows = items
            sections = newSections
            return .applied
        case .batch(let from, let to, _), .sectionedBatch(let from, let to, _):
            guard to > from else { return .inconsistent }
            guard let version else { return .gap }
            if to <= version { return .ignored }
            guard from == version else { return .gap }
            switch (message, sections) {
            case (.batch(_, _, let steps), nil):
                guard let newRows = Self.applying(steps, to: rows) else { return .inconsistent }
                rows = newRows
            case (.sectionedBatch(_, _, let steps), let current?):
                guard let newSections = Self.applying(steps, to: current) else { return .inconsistent }
                sections = newSections
                rows = newSections.flatMap(\.items)
            default:
                // A flat batch for a sectioned list, or the reverse.
                return .inconsistent
            }
            self.version = to
            return .applied
        }
    }

    /// Decodes and applies one message, in the browser client's order: text that is not
    /// a JSON object, or a snapshot or batch whose versions are malformed (not integers
    /// within ±(2^53 − 1)), is `.inconsistent`; a message of another type is `.ignored`;
    /// a batch's versions are checked (`.gap`, `.ignored`) before its steps are decoded,
    /// and steps that do not decode are `.inconsistent`.
    ///
    /// Ids are compared as the client compares them, character code by character code:
    /// `"\u{E9}"` and `"e\u{301}"` are two ids here, though Swift's `==` calls them equal.
    /// Versions are read as `JSON.parse` reads numbers, as doubles: `1e3` is version 1000,
    /// and `9007199254740991.5` rounds to 2^53, which is not a safe integer.
    ///
    /// Differences remain, in text that no encoder of this package writes: where an
    /// object repeats a key, this decoder reads the first value and `JSON.parse` the
    /// last; `JSONDecoder` accepts a trailing comma, which `JSON.parse` rejects, and
    /// rejects an escaped lone surrogate (`"\ud800"`), which `JSON.parse` accepts.
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
        // `JSON.parse` does not skip a byte order mark; `JSONDecoder` would.
        guard json.unicodeScalars.first != "\u{FEFF}" else { return .inconsistent }
        let data = Data(json.utf8)
        guard let header = try? JSONDecoder().decode(_MessageHeader.self, from: data) else { return .inconsistent }
        switch header.type {
        case "snapshot":
            guard let newVersion = header.version, header.hasItems || header.hasSections else { return .inconsistent }
            if let version, newVersion < version, !acceptingOlderSnapshot { return .ignored }
        case "batch":
            guard let from = header.from, let to = header.to, to > from, header.hasSteps else { return .inconsistent }
            guard let version else { return .gap }
            if to <= version { return .ignored }
            guard from == version else { return .gap }
        default:
            return .ignored
        }
        guard let message = try? WebListMessage(json: data) else { return .inconsistent }
        return apply(message, acceptingOlderSnapshot: acceptingOlderSnapshot)
    }

    private static func applying(_ steps: [WebListStep], to rows: [WebListRow]) -> [WebListRow]? {
        var rows = rows
        var ids = Set(rows.map { _ExactID($0.id) })
        for step in steps {
            switch step {
            case .remove(let at):
                guard rows.indices.contains(at) else { return nil }
                ids.remove(_ExactID(rows.remove(at: at).id))
            case .insert(let row, let at):
                guard at >= 0, at <= rows.count, ids.insert(_ExactID(row.id)).inserted else { return nil }
                rows.insert(row, at: at)
            case .move(let from, let to):
                guard rows.indices.contains(from), rows.indices.contains(to) else { return nil }
                rows.insert(rows.remove(at: from), at: to)
            case .reload(let row, let at):
                guard rows.indices.contains(at), _ExactID(rows[at].id) == _ExactID(row.id) else { return nil }
                rows[at] = row
            }
        }
        return rows
    }
}

extension WebListReplica {
    /// Applies sectioned steps to a copy of `sections`; `nil` when a step is invalid.
    fileprivate static func applying(_ steps: [WebListSectionedStep], to sections: [WebListSection]) -> [WebListSection]? {
        var sections = sections
        var ids = Set(sections.flatMap { $0.items.map { _ExactID($0.id) } })
        var keys = Set(sections.map { _ExactID($0.key) })
        func isRow(_ path: ListIndexPath) -> Bool {
            sections.indices.contains(path.section) && sections[path.section].items.indices.contains(path.item)
        }
        func isPlace(_ path: ListIndexPath) -> Bool {
            sections.indices.contains(path.section) && path.item >= 0 && path.item <= sections[path.section].items.count
        }
        for step in steps {
            switch step {
            case .insertSection(let key, let title, let at):
                guard at >= 0, at <= sections.count, keys.insert(_ExactID(key)).inserted else { return nil }
                sections.insert(WebListSection(key: key, title: title, items: []), at: at)
            case .removeSection(let at):
                guard sections.indices.contains(at), sections[at].items.isEmpty else { return nil }
                keys.remove(_ExactID(sections.remove(at: at).key))
            case .remove(let at):
                guard isRow(at) else { return nil }
                ids.remove(_ExactID(sections[at.section].items.remove(at: at.item).id))
            case .insert(let row, let at):
                guard isPlace(at), ids.insert(_ExactID(row.id)).inserted else { return nil }
                sections[at.section].items.insert(row, at: at.item)
            case .move(let from, let to):
                guard isRow(from) else { return nil }
                let row = sections[from.section].items.remove(at: from.item)
                guard isPlace(to) else { return nil }
                sections[to.section].items.insert(row, at: to.item)
            case .reload(let row, let at):
                guard isRow(at), _ExactID(sections[at.section].items[at.item].id) == _ExactID(row.id) else { return nil }
                sections[at.section].items[at.item] = row
            }
        }
        return sections
    }
}

/// What the browser client reads of a message before its rows or steps: the type, the
/// versions (each `nil` unless an integer), and whether the rows, sections or steps are
/// an array.
private struct _MessageHeader: Decodable {
    var type: String?
    var version: Int?
    var from: Int?
    var to: Int?
    var hasItems = false
    var hasSections = false
    var hasSteps = false

    private enum Keys: String, CodingKey { case type, version, from, to, items, sections, steps }

    /// Any JSON value, unread.
    private struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func safeInteger(_ key: Keys) -> Int? {
            // A number as `JSON.parse` reads it (a double), then JavaScript's
            // `Number.isSafeInteger`: beyond 2^53 − 1 a number is not exact.
            guard let value = try? container.decodeIfPresent(Double.self, forKey: key),
                  value.rounded(.towardZero) == value, value.magnitude <= 9_007_199_254_740_991 else { return nil }
            return Int(value)
        }
        type = try? container.decodeIfPresent(String.self, forKey: .type)
        version = safeInteger(.version)
        from = safeInteger(.from)
        to = safeInteger(.to)
        hasItems = (try? container.decodeIfPresent([Skipped].self, forKey: .items)) != nil
        hasSections = (try? container.decodeIfPresent([Skipped].self, forKey: .sections)) != nil
        hasSteps = (try? container.decodeIfPresent([Skipped].self, forKey: .steps)) != nil
    }
}

/// An id as the browser client compares it: by its code units, not by Swift's `==`,
/// which treats canonically equivalent spellings as one string.
private struct _ExactID: Hashable {
    let scalars: [Unicode.Scalar]

    init(_ id: String) {
        scalars = Array(id.unicodeScalars)
    }
}

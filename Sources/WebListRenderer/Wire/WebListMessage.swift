/// One row as the browser receives it: its id (stored in the row element's `data-id`)
/// and its content markup.
public struct WebListRow: Hashable, Sendable {
    /// The row's id. Distinct rows must have distinct ids.
    public var id: String
    /// The row's content, assigned to the row element's `innerHTML` by the client.
    public var html: String

    /// Creates a row.
    public init(id: String, html: String) {
        self.id = id
        self.html = html
    }

    /// Creates a row from an ``HTML`` fragment.
    public init(id: String, html: HTML) {
        self.init(id: id, html: html.markup)
    }
}

/// One step of a batch message's edit script. Offsets refer to the list as it stands
/// after the previous steps of the same message.
public enum WebListStep: Hashable, Sendable {
    /// `{"op":"remove","at":3}`: remove the row at `at`.
    case remove(at: Int)
    /// `{"op":"insert","at":0,"id":"x","html":"…"}`: insert a new row at `at`.
    case insert(WebListRow, at: Int)
    /// `{"op":"move","from":5,"to":1}`: remove the row at `from`, then insert it at `to`
    /// in the shortened list.
    case move(from: Int, to: Int)
    /// `{"op":"reload","at":2,"id":"y","html":"…"}`: replace the content of the row at
    /// `at`, whose id is `row.id`.
    case reload(WebListRow, at: Int)
}

/// A message of the web wire format (DESIGN.md section 8).
///
/// ```
/// {"type":"snapshot","version":7,"items":[{"id":"a","html":"…"},…]}
/// {"type":"batch","from":7,"to":8,"steps":[{"op":"remove","at":3},…]}
/// ```
///
/// A client holding version `from` applies a batch's steps in order and is then at
/// version `to`. A client at any other version must not apply it: it asks for a snapshot,
/// which replaces its whole list. Encode with ``json``; decode with ``init(json:)``.
public enum WebListMessage: Hashable, Sendable {
    /// The whole list at `version`.
    case snapshot(version: Int, items: [WebListRow])
    /// The change from version `from` to version `to`, as a sequential edit script.
    case batch(from: Int, to: Int, steps: [WebListStep])

    /// The version a client is at after applying the message.
    public var version: Int {
        switch self {
        case .snapshot(let version, _): version
        case .batch(_, let to, _): to
        }
    }
}

extension WebListMessage {
    /// The message with `offset` added to its versions; its rows and steps are unchanged.
    ///
    /// - Complexity: O(1) (the rows and steps are shared, not copied).
    func shiftingVersions(by offset: Int) -> WebListMessage {
        guard offset != 0 else { return self }
        switch self {
        case .snapshot(let version, let items): return .snapshot(version: version + offset, items: items)
        case .batch(let from, let to, let steps): return .batch(from: from + offset, to: to + offset, steps: steps)
        }
    }

    /// Whether `batch` continues from `shown`, the last snapshot a renderer sent: the
    /// batch starts from those very rows. Equal version numbers are not enough, since a
    /// renderer moved between lists can see the same number from two lists.
    ///
    /// - Complexity: O(1) when `shown` is `batch.old` (always, within one list), or the
    ///   versions differ; O(*n*) to compare the rows otherwise (after a move to another
    ///   list with the same version, or after a change that left a list's rows as they
    ///   were under a new order).
    static func continues<Item>(_ shown: ListSnapshot<Item>, with batch: ChangeBatch<Item>) -> Bool {
        guard shown.version == batch.old.version else { return false }
        return shown.isIdentical(to: batch.old) || shown.elementsEqual(batch.old)
    }

    /// What a renderer adds to a list's versions to number its messages, when its stream
    /// restarts with a snapshot of list version `version` after sending messages up to
    /// wire version `last` (`nil` when nothing was sent yet).
    ///
    /// A renderer moved to another list restarts from that list's versions, which may be
    /// lower than the ones it sent. A client would take the restart snapshot for a stale
    /// one and skip it, and then apply the new list's batches to the old list's rows once
    /// their versions pass its own. Shifting keeps the wire versions of one renderer
    /// increasing: the restart snapshot is numbered `last + 1` when the list's own version
    /// is not above `last`, and keeps the list's version otherwise.
    ///
    /// - Complexity: O(1).
    static func versionOffset(restartingAt version: Int, after last: Int?) -> Int {
        guard let last, version <= last else { return 0 }
        return last + 1 - version
    }
}

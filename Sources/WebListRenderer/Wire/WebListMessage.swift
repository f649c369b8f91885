/// One row as the browser receives it: its id (stored in the row element's `data-id`)
/// and its content markup.
public struct WebListRow: Hashable, Sendable {
    /// The row's id. Distinct rows must have distinct ids.
    public var id: String
    /// The row's content, assigned to the row element's `innerHTML` by the client.
    public var html: String

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - id: the row's id; distinct rows must have distinct ids.
    ///   - html: the row's content markup, which the client assigns to `innerHTML` as it
    ///     is (it is not HTML-escaped).
    public init(id: String, html: String) {
        self.id = id
        self.html = html
    }

    /// Creates a row from an ``HTML`` fragment.
    ///
    /// - Parameters:
    ///   - id: the row's id; distinct rows must have distinct ids.
    ///   - html: the row's content; its ``HTML/markup`` is sent.
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

/// A message of the web wire format: the JSON text a server sends to keep a browser's
/// copy of a list up to date.
///
/// ```
/// {"type":"snapshot","version":7,"items":[{"id":"a","html":"…"},…]}
/// {"type":"batch","from":7,"to":8,"steps":[{"op":"remove","at":3},…]}
/// ```
///
/// A sectioned list (see ``SectionedWebListHub``) sends its rows grouped, and its steps
/// in index paths:
///
/// ```
/// {"type":"snapshot","version":7,"sections":[{"key":"gold","title":"Gold","items":[…]},…]}
/// {"type":"batch","from":7,"to":8,"sectioned":true,"steps":[{"op":"move","from":[0,2],"to":[1,0]},…]}
/// ```
///
/// A client holding version `from` applies a batch's steps in order and is then at
/// version `to`. A client at any other version must not apply it: it asks for a snapshot,
/// which replaces its whole list. Encode with ``json``; decode with ``init(json:)-(String)``.
public enum WebListMessage: Hashable, Sendable {
    /// The whole list at `version`.
    case snapshot(version: Int, items: [WebListRow])
    /// The change from version `from` to version `to`, as a sequential edit script.
    case batch(from: Int, to: Int, steps: [WebListStep])
    /// The whole sectioned list at `version`: its sections in order, each with its rows.
    case sectionedSnapshot(version: Int, sections: [WebListSection])
    /// The change of a sectioned list from version `from` to version `to`, as a
    /// sequential edit script of sections and index paths.
    case sectionedBatch(from: Int, to: Int, steps: [WebListSectionedStep])

    /// The version a client is at after applying the message.
    ///
    /// - Complexity: O(1).
    public var version: Int {
        switch self {
        case .snapshot(let version, _), .sectionedSnapshot(let version, _): version
        case .batch(_, let to, _), .sectionedBatch(_, let to, _): to
        }
    }

    /// Whether the message is a snapshot (flat or sectioned).
    ///
    /// - Complexity: O(1).
    var _isSnapshot: Bool {
        switch self {
        case .snapshot, .sectionedSnapshot: true
        case .batch, .sectionedBatch: false
        }
    }

    /// For a batch (flat or sectioned), the version it applies to; `nil` for a snapshot.
    ///
    /// - Complexity: O(1).
    var _fromVersion: Int? {
        switch self {
        case .snapshot, .sectionedSnapshot: nil
        case .batch(let from, _, _), .sectionedBatch(let from, _, _): from
        }
    }
}

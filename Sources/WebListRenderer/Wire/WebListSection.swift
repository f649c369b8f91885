/// One section of a sectioned list as the browser receives it: its key (stored in the
/// section element's `data-key`), its title (shown as text in the section's header) and
/// its rows.
///
/// ```swift
/// WebListSection(key: "gold", title: "Gold", items: [WebListRow(id: "p7", html: "<b>Ana</b>")])
/// // {"key":"gold","title":"Gold","items":[{"id":"p7","html":"<b>Ana</b>"}]}
/// ```
public struct WebListSection: Hashable, Sendable {
    /// The section's key. Distinct sections must have distinct keys.
    public var key: String
    /// The section's title, plain text: the client shows it with `textContent`, so it
    /// needs no escaping.
    public var title: String
    /// The section's rows, in display order.
    public var items: [WebListRow]

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - key: the section's key; distinct sections must have distinct keys.
    ///   - title: the section's title, as plain text.
    ///   - items: the section's rows, in display order.
    public init(key: String, title: String, items: [WebListRow]) {
        self.key = key
        self.title = title
        self.items = items
    }
}

/// One step of a sectioned batch message's edit script. Section offsets and index paths
/// refer to the list as it stands after the previous steps of the same message; an index
/// path is written `[section, item]`.
public enum WebListSectionedStep: Hashable, Sendable {
    /// `{"op":"insertSection","at":1,"key":"gold","title":"Gold"}`: insert an empty
    /// section with this key and title at section offset `at`.
    case insertSection(key: String, title: String, at: Int)
    /// `{"op":"removeSection","at":2}`: remove the section at offset `at`, which is empty
    /// by then.
    case removeSection(at: Int)
    /// `{"op":"remove","at":[0,3]}`: remove the row at the index path.
    case remove(at: ListIndexPath)
    /// `{"op":"insert","at":[1,0],"id":"x","html":"…"}`: insert a new row at the index path.
    case insert(WebListRow, at: ListIndexPath)
    /// `{"op":"move","from":[0,1],"to":[1,0]}`: remove the row at `from`, then insert it
    /// at `to` in the list without it, possibly in another section.
    case move(from: ListIndexPath, to: ListIndexPath)
    /// `{"op":"reload","at":[1,0],"id":"x","html":"…"}`: replace the content of the row
    /// at the index path, whose id is `row.id`.
    case reload(WebListRow, at: ListIndexPath)
}

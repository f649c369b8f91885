/// A type that can be a row of a ``ListDataSource``: it has an identity and a default order.
///
/// Three things about an item matter to the list, and they are kept apart:
///
/// - **Identity** is `id` (from `Identifiable`): the list holds at most one item per id.
/// - **Content** is ``isContentEqual(to:)``, which is `==` (from `Hashable`) unless the
///   type says otherwise: adding an item whose content equals the stored one's changes
///   nothing; adding an item with the same id and other content is an *update*.
/// - **Order** is `<`, unless a comparator is given to ``ListDataSource/init(_:sortedBy:)``
///   or ``ListDataSource/sort(by:)``.
///
/// ```swift
/// struct Player: Hashable, DataSourceComparable {
///     let id: String
///     var name: String
///     var score: Int
///     static func < (lhs: Player, rhs: Player) -> Bool { lhs.score > rhs.score }
/// }
/// ```
///
/// - Important: An `==` that compares only ids (a habit that diffable data sources
///   teach, where `Hashable` is the identity) makes every later change to an item a
///   silent no-op: the new item equals the stored one, so nothing is updated and no batch
///   is sent. Either let `==` compare every field that is shown (the synthesized
///   conformance does), or keep an id-only `==` and implement ``isContentEqual(to:)``:
///
/// ```swift
/// struct Message: Hashable, DataSourceComparable {
///     let id: UUID
///     var text: String
///     var isRead: Bool
///     var sentAt: Date
///     static func == (lhs: Message, rhs: Message) -> Bool { lhs.id == rhs.id }
///     func hash(into hasher: inout Hasher) { hasher.combine(id) }
///     static func < (lhs: Message, rhs: Message) -> Bool { lhs.sentAt > rhs.sentAt }
///     func isContentEqual(to other: Message) -> Bool {
///         text == other.text && isRead == other.isRead && sentAt == other.sentAt
///     }
/// }
/// ```
///
/// `<` should be a strict weak order. When it is not (a comparator with random answers,
/// say), the list still holds every id exactly once and every batch still applies
/// correctly; only the sortedness of the rows is lost.
///
/// <doc:Semantics> defines what each mutation does with identity, content and order.
public protocol DataSourceComparable: Identifiable, Sendable where ID: Sendable {
    /// Returns whether `lhs` sorts before `rhs` in the default row order.
    ///
    /// - Parameters:
    ///   - lhs: an item.
    ///   - rhs: another item.
    /// - Returns: `true` when `lhs` comes before `rhs`; `false` when it comes after or
    ///   the two tie.
    static func < (lhs: Self, rhs: Self) -> Bool

    /// Returns whether this item shows the same content as `other`, an item with the
    /// same id.
    ///
    /// The list calls it to tell an update from a no-op: adding an item whose content
    /// equals the stored item's changes nothing (the stored item stays), and a batch
    /// reloads a row only when its content changed. The default, for `Equatable` types,
    /// is `==`; implement it where `==` is not the content, such as an `==` that compares
    /// only ids.
    ///
    /// - Parameter other: an item with the same id.
    /// - Returns: `true` when nothing shown differs between the two.
    /// - Complexity: as the implementation; the default is one `==`.
    func isContentEqual(to other: Self) -> Bool
}

extension DataSourceComparable where Self: Equatable {
    /// Returns `self == other`: for an `Equatable` item, content is `==`.
    ///
    /// - Parameter other: an item with the same id.
    /// - Returns: whether the two are equal.
    /// - Complexity: one `==`.
    @inlinable public func isContentEqual(to other: Self) -> Bool {
        self == other
    }
}

/// Whether two optional items have the same content: both absent, or both present with
/// equal content.
@inlinable func _isSameContent<Item: DataSourceComparable>(_ first: Item?, _ second: Item?) -> Bool {
    switch (first, second) {
    case (nil, nil): true
    case let (first?, second?): first.isContentEqual(to: second)
    default: false
    }
}

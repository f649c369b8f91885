/// A type that can be a row of a ``ListDataSource``: it has an identity and a default order.
///
/// Three things about an item matter to the list, and they are kept apart:
///
/// - **Identity** is `id` (from `Identifiable`): the list holds at most one item per id.
/// - **Content** is `==` (from `Hashable`): adding an item equal to the stored one
///   changes nothing; adding a different item with the same id is an *update*.
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
}

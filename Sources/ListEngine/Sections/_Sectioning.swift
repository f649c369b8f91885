/// How a sectioned list groups its rows, as the flat engine sees it.
///
/// A ``SectionedListDataSource`` keeps its rows in one flat ``ListDataSource`` ordered
/// section-major: by section key, then by the list's own order. The flat engine needs
/// to know three things about the sections, and nothing about their key type:
/// which surviving rows changed section (they must move, and weigh nothing in the
/// subsequence of rows that stay), how to wrap a new within-section order for
/// `sort(by:)`, and how to derive the sections of a new snapshot and the index-path
/// form of a batch. This protocol erases the key type for it.
@usableFromInline protocol _Sectioning<Item>: Sendable {
    associatedtype Item: Hashable & DataSourceComparable

    /// Whether an item that was `old` and is `new` (the same id) is in another section.
    func isSectionChanged(from old: Item, to new: Item) -> Bool

    /// The section-major order that sorts rows by section, then by `order` (the items'
    /// `<` when `nil`) within a section.
    func sectionMajor(_ order: (@Sendable (Item, Item) -> Bool)?) -> @Sendable (Item, Item) -> Bool

    /// `storage`'s sections, found by walking every row.
    ///
    /// - Complexity: O(*n*) for *n* rows.
    func sections(of storage: _ListStorage<Item>) -> _AnySections

    /// The batch with its `new` snapshot's sections and its index-path form attached.
    ///
    /// - Complexity: O(*k* log *n* + *k* log *s*) for *k* changed rows, *n* rows and *s*
    ///   sections; O(*n*) when most rows changed.
    func sectioned(_ batch: ChangeBatch<Item>) -> ChangeBatch<Item>

    /// Traps unless the batch's index-path form satisfies invariants S1–S4.
    ///
    /// - Complexity: O(*n* log *n*); for `LIST_INTERNAL_CHECKS` builds and tests.
    func checkInvariants(of batch: ChangeBatch<Item>)
}

/// A type-erased reference to sections or to a batch's index-path form, carried by
/// flat snapshots and batches; only ``_SectionRule`` of the right key type reads it.
@usableFromInline typealias _AnySections = any AnyObject & Sendable

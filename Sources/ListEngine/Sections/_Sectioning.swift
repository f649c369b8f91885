/// How a sectioned list groups its rows, as the flat engine sees it.
///
/// A ``SectionedListDataSource`` keeps its rows in one flat ``ListDataSource`` ordered
/// section-major: by section key, then by the list's own order. The flat engine needs
/// to know three things about the sections, and nothing about their key type:
/// which surviving rows changed section (they must move, and weigh nothing in the
/// subsequence of rows that stay), how to wrap a new within-section order for
/// `sort(by:)`, and how to derive the sections of a new snapshot and the index-path
/// form of a batch.
///
/// The key type is erased into closures rather than behind a protocol: the closures are
/// formed where ``SectionedListDataSource`` is created, which the compiler specializes
/// for the program's key and item types, so the engine calls specialized code. (Calls
/// through a protocol existential would reach the generic, unspecialized code, which
/// looks up type metadata on every comparison of keys.)
@usableFromInline struct _Sectioning<Item: Hashable & DataSourceComparable>: Sendable {
    /// Whether an item that was the first item and is the second (the same id) is in
    /// another section.
    @usableFromInline let isSectionChanged: @Sendable (Item, Item) -> Bool

    /// The section-major order that sorts rows by section, then by the given order (the
    /// items' `<` when `nil`) within a section, as a list's row order with its keyed sort.
    @usableFromInline let rowOrder: @Sendable ((@Sendable (Item, Item) -> Bool)?) -> _RowOrder<Item>

    /// The storage's sections, found by one walk of its rows (see
    /// ``_CountedBTree/runStarts(by:)``).
    @usableFromInline let sections: @Sendable (_ListStorage<Item>) -> _AnySections

    /// The batch with its `new` snapshot's sections and its index-path form attached;
    /// O(*k* log *n* + *k* log *s*) for *k* changed rows, *n* rows and *s* sections.
    @usableFromInline let sectioned: @Sendable (ChangeBatch<Item>) -> ChangeBatch<Item>

    /// Traps unless the batch's index-path form satisfies invariants S1–S4; O(*n* log *n*),
    /// for `LIST_INTERNAL_CHECKS` builds and tests.
    @usableFromInline let checkInvariants: @Sendable (ChangeBatch<Item>) -> Void

    @inlinable init<Section>(_ rule: _SectionRule<Section, Item>) {
        isSectionChanged = { rule.isSectionChanged(from: $0, to: $1) }
        rowOrder = { rule.rowOrder($0) }
        sections = { rule.sections(of: $0) }
        sectioned = { rule.sectioned($0) }
        checkInvariants = { rule.checkInvariants(of: $0) }
    }
}

/// A type-erased reference to sections or to a batch's index-path form, carried by
/// flat snapshots and batches; only ``_SectionRule`` of the right key type reads it.
@usableFromInline typealias _AnySections = any AnyObject & Sendable

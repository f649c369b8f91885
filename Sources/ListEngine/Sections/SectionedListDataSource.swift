import Dispatch

/// A sorted, deduplicated list whose rows are grouped into sections, with batches in
/// index paths.
///
/// Sections are derived from the items: each item's section is the key the `section`
/// closure computes from it, sections are ordered by key, and the rows of a section
/// keep the list's order. A section exists exactly while it holds a row, so there is no
/// call to add or remove one: adding the first row with a key creates its section, and
/// removing the last removes it.
///
/// The rows are one flat ``ListDataSource`` in section-major order, ``rows``: every
/// mutation has the flat list's meaning, and flat renderers and a paginator work on it
/// unchanged. Each flat batch has a sectioned form, ``SectionedChangeBatch``, with the
/// same version. A row whose key changes moves to its new section; among the other
/// rows the batch names, the fewest move.
///
/// ```swift
/// let inbox = SectionedListDataSource<String, Message>(sectionedBy: \.day)
/// let token = inbox.attach(MailboxTable(), on: .main)
/// inbox.add(messages)
/// let snapshot = await inbox.flush()
/// print(snapshot.sections.map(\.key))
/// inbox.detach(token)
/// ```
///
/// - Complexity: a batch of *k* changed rows costs O(*k* log *n* + *k* log *s*) beyond the
///   flat batch, for *n* rows and *s* sections; reading a section or finding a row's
///   index path costs O(log *n* + log *s*).
public final class SectionedListDataSource<Section: Hashable & Comparable & Sendable, Item: Hashable & DataSourceComparable>: Sendable {
    /// The same list, flat, in section-major order: by section key, then by the list's
    /// order. Its batches are the ``SectionedChangeBatch/rows`` of this list's batches.
    public let rows: ListDataSource<Item>
    @usableFromInline let _rule: _SectionRule<Section, Item>

    /// Creates an empty list grouped by `section`, rows ordered by the items' `<` within
    /// a section.
    ///
    /// - Parameter section: each item's section key. It must depend only on the item
    ///   and be cheap: it runs on every comparison of rows.
    /// - Complexity: O(1).
    @inlinable public convenience init(sectionedBy section: @escaping @Sendable (Item) -> Section) {
        self.init(rule: _SectionRule(sectionOf: section), order: nil)
    }

    /// Creates an empty list grouped by `section`, rows ordered by `areInIncreasingOrder`
    /// within a section.
    ///
    /// - Parameters:
    ///   - section: each item's section key. It must depend only on the item and be
    ///     cheap: it runs on every comparison of rows.
    ///   - areInIncreasingOrder: the row order within a section, a strict weak order.
    /// - Complexity: O(1).
    @inlinable public convenience init(
        sectionedBy section: @escaping @Sendable (Item) -> Section,
        sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.init(rule: _SectionRule(sectionOf: section), order: areInIncreasingOrder)
    }

    /// Creates a list holding `items`, grouped by `section`, rows ordered by the items'
    /// `<` within a section.
    ///
    /// The items are added with ``add(_:)-(Sequence<Item>)``'s meaning (when an id
    /// repeats, the last wins); a non-empty list starts at version 1.
    /// - Parameters:
    ///   - items: the initial rows, in any order.
    ///   - section: each item's section key. It must depend only on the item and be
    ///     cheap: it runs on every comparison of rows.
    /// - Complexity: O(*n* log *n*) comparisons for *n* items, on the calling thread (on
    ///   two threads at once from 16,384 items, as ``ListDataSource/init(_:)``).
    @inlinable public convenience init(_ items: some Sequence<Item>, sectionedBy section: @escaping @Sendable (Item) -> Section) {
        self.init(items, rule: _SectionRule(sectionOf: section), order: nil)
    }

    /// Creates a list holding `items`, grouped by `section`, rows ordered by
    /// `areInIncreasingOrder` within a section.
    ///
    /// The items are added with ``add(_:)-(Sequence<Item>)``'s meaning (when an id
    /// repeats, the last wins); a non-empty list starts at version 1.
    /// - Parameters:
    ///   - items: the initial rows, in any order.
    ///   - section: each item's section key. It must depend only on the item and be
    ///     cheap: it runs on every comparison of rows.
    ///   - areInIncreasingOrder: the row order within a section, a strict weak order.
    /// - Complexity: O(*n* log *n*) comparisons for *n* items, on the calling thread (on
    ///   two threads at once from 16,384 items, as ``ListDataSource/init(_:sortedBy:)``).
    @inlinable public convenience init(
        _ items: some Sequence<Item>,
        sectionedBy section: @escaping @Sendable (Item) -> Section,
        sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.init(items, rule: _SectionRule(sectionOf: section), order: areInIncreasingOrder)
    }

    /// Creates an empty list grouped by `section`, rows ordered by the items' `<` within a
    /// section, at `version`: its snapshot has that version and its first batch goes from
    /// `version` to `version + 1` (see ``ListDataSource/init(version:)``).
    ///
    /// - Parameters:
    ///   - section: each item's section key. It must depend only on the item and be
    ///     cheap: it runs on every comparison of rows.
    ///   - version: the version of the empty list, at least 0.
    /// - Complexity: O(1).
    @inlinable public convenience init(sectionedBy section: @escaping @Sendable (Item) -> Section, version: Int) {
        self.init([Item](), rule: _SectionRule(sectionOf: section), order: nil, version: version)
    }

    /// Creates an empty list grouped by `section`, rows ordered by `areInIncreasingOrder`
    /// within a section, at `version` (see ``init(sectionedBy:version:)``).
    ///
    /// - Parameters:
    ///   - section: each item's section key. It must depend only on the item and be
    ///     cheap: it runs on every comparison of rows.
    ///   - areInIncreasingOrder: the row order within a section, a strict weak order.
    ///   - version: the version of the empty list, at least 0.
    /// - Complexity: O(1).
    @inlinable public convenience init(
        sectionedBy section: @escaping @Sendable (Item) -> Section,
        sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool,
        version: Int
    ) {
        self.init([Item](), rule: _SectionRule(sectionOf: section), order: areInIncreasingOrder, version: version)
    }

    @inlinable convenience init(rule: _SectionRule<Section, Item>, order: (@Sendable (Item, Item) -> Bool)?) {
        self.init([Item](), rule: rule, order: order)
    }

    @inlinable init(_ items: some Sequence<Item>, rule: _SectionRule<Section, Item>, order: (@Sendable (Item, Item) -> Bool)?, version: Int? = nil) {
        _rule = rule
        rows = ListDataSource(items, order: rule.rowOrder(order), sectioning: _Sectioning(rule), version: version)
    }

    // MARK: - Mutations

    /// Adds or updates items, with ``ListDataSource/add(_:)-(Sequence<Item>)``'s meaning.
    /// An item whose key changed moves to its new section.
    ///
    /// - Parameter items: the items, in any order; when an id repeats, the last wins.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n* + *k* log *s*) on the diff queue.
    @inlinable public func add(_ items: some Sequence<Item>) { rows.add(items) }

    /// Adds or updates one item, with ``ListDataSource/add(_:)-(Item)``'s meaning.
    ///
    /// - Parameter item: the item.
    /// - Complexity: O(1) on the caller; O(log *n* + log *s*) on the diff queue.
    @inlinable public func add(_ item: Item) { rows.add(item) }

    /// Removes the rows with these ids; unknown ids are ignored. A section whose last
    /// row goes is removed.
    ///
    /// - Parameter ids: the ids to remove.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n* + *k* log *s*) on the diff queue.
    @inlinable public func remove(ids: some Sequence<Item.ID>) { rows.remove(ids: ids) }

    /// Removes the rows with these items' ids.
    ///
    /// - Parameter items: the items whose ids to remove.
    /// - Complexity: as ``remove(ids:)``.
    @inlinable public func remove(_ items: some Sequence<Item>) { rows.remove(items) }

    /// Removes every row and so every section.
    ///
    /// - Complexity: O(1) on the caller; O(*n*) on the diff queue.
    @inlinable public func removeAll() { rows.removeAll() }

    /// Replaces the rows with `items`, with ``ListDataSource/replaceAll(with:)``'s
    /// meaning: one batch, rows that stay are not blanked.
    ///
    /// - Parameter items: the new rows, in any order.
    /// - Complexity: O(*k*) on the caller; O(*n* + *k* log *n*) on the diff queue.
    @inlinable public func replaceAll(with items: some Sequence<Item>) { rows.replaceAll(with: items) }

    /// Re-sorts the rows within their sections under a new order, which also orders
    /// later additions. Sections keep their order by key.
    ///
    /// - Parameter areInIncreasingOrder: the new row order within a section.
    /// - Complexity: O(*n* log *n*) on the diff queue.
    @inlinable public func sort(by areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool) {
        rows.sort(by: areInIncreasingOrder)
    }

    /// Changes the row with `id` as every earlier call left it, then adds the result, with
    /// ``ListDataSource/update(id:_:)``'s meaning.
    ///
    /// - Parameters:
    ///   - id: the row's id.
    ///   - change: edits the item in place; it must keep the id.
    /// - Complexity: O(1) on the caller; O(log *n* + log *s*) on the diff queue, plus `change`.
    @inlinable public func update(id: Item.ID, _ change: @escaping @Sendable (inout Item) -> Void) {
        rows.update(id: id, change)
    }

    /// Changes each row with one of `ids`, with ``ListDataSource/update(ids:_:)``'s meaning.
    ///
    /// - Parameters:
    ///   - ids: the rows' ids.
    ///   - change: edits each item in place; it must keep the id.
    /// - Complexity: O(*k*) on the caller; O(*k* log *n* + *k* log *s*) on the diff queue.
    @inlinable public func update(ids: some Sequence<Item.ID>, _ change: @escaping @Sendable (inout Item) -> Void) {
        rows.update(ids: ids, change)
    }

    /// Makes several edits, decided on the latest state, and delivers them as one batch,
    /// as ``ListDataSource/perform(_:)`` does; offsets in ``ListEdits`` are flat row
    /// offsets, sections in order.
    ///
    /// - Parameter edits: the edits; it runs once, on the diff queue, so it must not
    ///   block or wait for this list.
    /// - Complexity: O(1) on the caller; on the diff queue, the edits' own costs.
    @inlinable public func perform(_ edits: @escaping @Sendable (inout ListEdits<Item>) -> Void) {
        rows.perform(edits)
    }

    /// Removes the rows `shouldBeRemoved` selects, with ``ListDataSource/remove(where:)``'s
    /// meaning.
    ///
    /// - Parameter shouldBeRemoved: whether to remove a row.
    /// - Complexity: O(1) on the caller; O(*n*) calls of the predicate on the diff queue.
    @inlinable public func remove(where shouldBeRemoved: @escaping @Sendable (Item) -> Bool) {
        rows.remove(where: shouldBeRemoved)
    }

    // MARK: - Reading

    /// The latest delivered snapshot, with ``ListDataSource/snapshot``'s meaning.
    ///
    /// - Complexity: O(1).
    @inlinable public var snapshot: SectionedSnapshot<Section, Item> { _rule.snapshot(of: rows.snapshot) }

    // MARK: - Delivery

    /// Starts delivering batches to `renderer`: the attach batch, which inserts every
    /// current section and row, then every later batch in version order, each exactly
    /// once, on `queue`; the rules of ``ListDataSource/attach(_:on:)``.
    ///
    /// - Parameters:
    ///   - renderer: the renderer; kept alive until ``detach(_:)``.
    ///   - queue: where `render(_:)` is called; `nil` for a private serial queue.
    /// - Returns: the token to pass to ``detach(_:)``.
    /// - Complexity: O(*r*) on the caller for *r* attached renderers; O(*n* + *s* log *n*)
    ///   to build the attach batch.
    @discardableResult
    @inlinable public func attach(_ renderer: some SectionedListRenderer<Section, Item>, on queue: DispatchQueue? = nil) -> RendererToken {
        let rule = _rule
        return rows._attach(renderer: ObjectIdentifier(renderer), on: queue) { renderer.render(SectionedChangeBatch($0, rule: rule)) }
    }

    /// Starts delivering batches to a main-actor renderer, on the main queue; the rules
    /// of ``attach(_:on:)`` with `.main`. May be called from any thread.
    ///
    /// - Parameter renderer: the renderer; kept alive until ``detach(_:)``.
    /// - Returns: the token to pass to ``detach(_:)``.
    /// - Complexity: as ``attach(_:on:)``.
    @discardableResult
    @inlinable public func attach(_ renderer: some MainActorSectionedListRenderer<Section, Item>) -> RendererToken {
        let rule = _rule
        return rows._attach(renderer: ObjectIdentifier(renderer), on: .main) { batch in
            let sectioned = SectionedChangeBatch(batch, rule: rule)
            // Delivered by a serial queue that targets the main queue: on the main thread.
            MainActor.assumeIsolated { renderer.render(sectioned) }
        }
    }

    /// Stops delivering to the renderer attached with `token`, with
    /// ``ListDataSource/detach(_:)``'s meaning.
    ///
    /// - Parameter token: the token ``attach(_:on:)`` returned.
    /// - Complexity: O(*r*) for *r* attached renderers.
    @inlinable public func detach(_ token: RendererToken) { rows.detach(token) }

    /// The batches as an async sequence: the attach batch, then every later batch; the
    /// rules of ``ListDataSource/batches()``.
    ///
    /// - Returns: the stream of batches.
    /// - Complexity: O(1) on the caller.
    @inlinable public func batches() -> AsyncStream<SectionedChangeBatch<Section, Item>> {
        let (stream, continuation) = AsyncStream.makeStream(of: SectionedChangeBatch<Section, Item>.self)
        let rule = _rule
        let token = rows._attach(renderer: nil, on: nil, end: { continuation.finish() }) { continuation.yield(SectionedChangeBatch($0, rule: rule)) }
        continuation.onTermination = { [weak rows] _ in rows?.detach(token) }
        return stream
    }

    /// Waits until every mutation submitted before this call has been delivered to every
    /// attached renderer, and returns the resulting snapshot.
    ///
    /// - Returns: the snapshot after those mutations.
    /// - Complexity: O(1) on the caller.
    @discardableResult
    @inlinable public func flush() async -> SectionedSnapshot<Section, Item> {
        _rule.snapshot(of: await rows.flush())
    }
}

import Dispatch
import Synchronization

/// A sorted, deduplicated list of items that tells renderers exactly what changed.
///
/// The list holds at most one item per id, always in row order: the items' `<` for a
/// list made with ``init(_:)`` or ``init()``, or the comparator given to
/// ``init(_:sortedBy:)``, ``init(sortedBy:)`` or ``sort(by:)``. Mutations never block the caller:
/// they are queued to one private serial background queue (the *diff queue*), applied
/// in submission order, and turned into ``ChangeBatch``es that every attached
/// ``ListRenderer`` (or ``MainActorListRenderer``) receives in version order, exactly
/// once, on its own queue.
///
/// ## Meaning of mutations
/// Every mutation means the same as applying it one element at a time, left to right:
/// - ``add(_:)-(Sequence<Item>)``: an item with a new id goes after every row that does not sort after
///   it (its *upper bound*, so ties keep arrival order). An item equal to the stored one
///   changes nothing. A changed item with a known id stays in place if it still fits
///   between its neighbours (a *reload*), else it moves to its upper bound. When an id
///   repeats within one call, the last item wins.
/// - ``remove(ids:)`` and ``remove(_:)`` remove by id; unknown ids are ignored.
/// - ``update(id:_:)`` and ``update(ids:_:)`` change rows as every earlier call left
///   them, on the diff queue, then add the results; ``remove(where:)`` removes the rows
///   a predicate selects among them. Concurrent edits of one row compose.
/// - ``replaceAll(with:)`` removes every id not in the new items, then adds them.
/// - ``sort(by:)`` re-sorts stably under a new comparator.
///
/// ## Batches
/// Pending mutations may be coalesced into one batch, but one call is never split.
/// `add` and `remove` calls made while the diff queue prepares a large run of such
/// calls join that run's batch. A call that changes nothing delivers no batch. Only rows
/// a batch's calls named may move, and the fewest of those move (see ``ChangeBatch``
/// and the <doc:Semantics> article). An incremental `add` or `remove` of *k* items costs
/// O(*k* log *n*): storage is a copy-on-write B-tree with subtree counts, so snapshots
/// share structure and positions are found in O(log *n*). The nodes a change replaced
/// are freed by the last renderer to finish with its batch, on that renderer's queue
/// (see <doc:ThreadingAndMemory>).
///
/// The engine's code is `@inlinable`: a program that uses `ListDataSource<MyItem>`
/// compiles the engine for `MyItem`, so comparing, hashing and copying items are direct
/// (usually inlined) calls rather than calls through the protocols' witness tables.
///
/// ```swift
/// let players = ListDataSource<DataSourceItem<String>>()
/// let token = players.attach(MyTableAdapter(), on: .main)
/// players.add([DataSourceItem(uid: "b", value: "Bo", index: 2),
///              DataSourceItem(uid: "a", value: "Al", index: 1)])
/// await players.flush()                                            // renderer: insert 0, 1
/// players.add([DataSourceItem(uid: "b", value: "Bo", index: 0)])
/// let rows = await players.flush()                                 // renderer: move 1 → 0, reload 0; rows [b, a]
/// players.detach(token)
/// ```
///
/// The model is T21TableViewDataSource's (sorted rows, one per uid, work off the main
/// thread), with batches whose moves are minimal and whose delivery never uses
/// `DispatchQueue.sync` onto a renderer's queue.
public final class ListDataSource<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline let _diffQueue: DispatchQueue
    @usableFromInline let _shared: LockedState<_SharedState>
    /// The rows ahead of what renderers have been sent; used only on the diff queue.
    @usableFromInline let _engine: _DiffEngine<Item>
    /// The diff queue's work, ``_drain()``, as a closure formed where the list is
    /// created. Code that knows `Item` there runs the engine specialized for it even when
    /// generic code (a paginator, say) makes the call that schedules the work; a closure
    /// formed at each call would run the unspecialized engine for such a caller.
    @usableFromInline let _drainer: @Sendable (ListDataSource<Item>) -> Void

    /// What callers, the diff queue and renderers' queues share, under one lock: the
    /// pipeline of submitted commands and the ledger of what each renderer was sent
    /// and has rendered.
    @usableFromInline struct _SharedState: Sendable {
        @usableFromInline var pipeline = _MutationPipeline<Item>()
        @usableFromInline var ledger: _DeliveryLedger<Item>

        @inlinable init(ledger: _DeliveryLedger<Item>) {
            self.ledger = ledger
        }
    }

    /// Creates a list holding `items`, ordered by the items' `<`.
    ///
    /// The items are added with ``add(_:)-(Sequence<Item>)``'s meaning; a non-empty list starts at version 1.
    /// - Parameter items: the initial rows, in any order.
    /// - Complexity: O(*n* log *n*) comparisons for *n* items. Below 16,384 items they all
    ///   run on the calling thread; from 16,384 items on, the two halves of the items are
    ///   sorted on two threads at once (the bulk-edit threads, see <doc:ThreadingAndMemory>), so `<` is
    ///   called from two threads concurrently.
    @inlinable public convenience init(_ items: some Sequence<Item>) {
        self.init(items, order: .natural)
    }

    /// Creates a list holding `items`, ordered by `areInIncreasingOrder`.
    ///
    /// The items are added with ``add(_:)-(Sequence<Item>)``'s meaning; a non-empty list starts at version 1.
    /// A list ordered by the items' `<` is better made with ``init(_:)``: it compares rows
    /// without calling through a closure, which is faster for every search, sort and merge.
    /// - Parameters:
    ///   - items: the initial rows, in any order.
    ///   - areInIncreasingOrder: the row order, a strict weak order.
    /// - Complexity: O(*n* log *n*) comparisons for *n* items. Below 16,384 items they all
    ///   run on the calling thread; from 16,384 items on, the two halves of the items are
    ///   sorted on two threads at once (the bulk-edit threads, see <doc:ThreadingAndMemory>), so
    ///   `areInIncreasingOrder` is called from two threads concurrently (it is `@Sendable`).
    @inlinable public convenience init(
        _ items: some Sequence<Item>,
        sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool
    ) {
        self.init(items, order: _RowOrder(areInIncreasingOrder))
    }

    /// Creates an empty list ordered by the items' `<`.
    ///
    /// - Complexity: O(1).
    @inlinable public convenience init() {
        self.init([Item](), order: .natural)
    }

    /// Creates an empty list ordered by `areInIncreasingOrder`.
    ///
    /// - Parameter areInIncreasingOrder: the row order, a strict weak order.
    /// - Complexity: O(1).
    @inlinable public convenience init(sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool) {
        self.init([Item](), order: _RowOrder(areInIncreasingOrder))
    }

    /// Creates an empty list ordered by the items' `<`, at `version`: its snapshot has that
    /// version and its first batch goes from `version` to `version + 1`.
    ///
    /// For a list that takes over from another one whose renderers go on following
    /// versions, for instance a server that moves a client from a list shared by many
    /// clients to one of its own: starting past the last version the client saw, the new
    /// list's versions keep increasing for that client. A renderer attached to it gets the
    /// attach batch as always: from the empty version 0 to `version`.
    ///
    /// ```swift
    /// let own = ListDataSource<Player>(version: shared.snapshot.version)
    /// own.add(firstPage)  // version shared.snapshot.version + 1
    /// ```
    /// - Parameter version: the version of the empty list, at least 0.
    /// - Complexity: O(1).
    @inlinable public convenience init(version: Int) {
        self.init([Item](), order: .natural, version: version)
    }

    /// Creates an empty list ordered by `areInIncreasingOrder`, at `version`: its snapshot
    /// has that version and its first batch goes from `version` to `version + 1`
    /// (see ``init(version:)``).
    ///
    /// - Parameters:
    ///   - areInIncreasingOrder: the row order, a strict weak order.
    ///   - version: the version of the empty list, at least 0.
    /// - Complexity: O(1).
    @inlinable public convenience init(sortedBy areInIncreasingOrder: @escaping @Sendable (Item, Item) -> Bool, version: Int) {
        self.init([Item](), order: _RowOrder(areInIncreasingOrder), version: version)
    }

    /// Creates a list holding `items` in `order`; with `sectioning`, the rows of a
    /// ``SectionedListDataSource`` (`order` is then section-major). The initial state is
    /// `version`, or when `nil` 0 for an empty list and 1 for any other.
    @inlinable init(_ items: some Sequence<Item>, order: _RowOrder<Item>, sectioning: _Sectioning<Item>? = nil, version: Int? = nil) {
        precondition(version.map { $0 >= 0 } ?? true, "a list's version is at least 0")
        var storage = _ListStorage<Item>(comparator: order)
        storage.add(contentsOf: items)
        let initial = ListSnapshot(_storage: storage, version: version ?? (storage.count == 0 ? 0 : 1), sections: sectioning?.sections(storage))
        _diffQueue = DispatchQueue(label: "ListEngine.ListDataSource.diff", target: _SharedQueues.pool)
        _engine = _DiffEngine(storage: storage, published: initial, queue: _diffQueue, sectioning: sectioning)
        _shared = LockedState(_SharedState(ledger: _DeliveryLedger(initial: initial)))
        _drainer = { $0._drain() }
    }

    deinit {
        // Every batch sent was delivered by now (each delivery holds the data source), so
        // the streams still attached have had their last batch: end them.
        let boxes = _shared.withLock { $0.ledger.entries.map { $0.box } }
        for box in boxes { box.end?() }
    }

    /// How many batches were found unsorted under `LIST_INTERNAL_CHECKS` — only a
    /// comparator that is not a strict weak order causes this. Always 0 without the flag.
    ///
    /// - Complexity: O(1).
    @inlinable public var _orderViolationCount: Int { _engine.orderViolations.load(ordering: .relaxed) }
}

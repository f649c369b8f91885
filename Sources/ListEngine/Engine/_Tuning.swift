/// Every cutoff the engine's choices depend on, named and explained once.
///
/// None of these changes what a list holds or what a batch says: each only picks
/// between ways of computing the same result (one row at a time or in one pass, on one
/// thread or two, polling or sleeping) or sizes a structure. They were chosen by timing
/// the scenarios of the `Benchmarks/` package; the figures live in `Benchmarks/README.md`,
/// not here. The pure choices built on them are in ``_EditStrategy`` and
/// ``_EditStrategy/walksBothSnapshots(touched:oldCount:newCount:)``.
@usableFromInline enum _Tuning {
    // MARK: Applying `add` and `remove` calls

    /// A run of `add` and `remove` calls naming at least this many rows is applied in
    /// one pass over the id index and one over the rows (a bulk edit), when it is the
    /// first change since the last batch. Below it, finding each row costs less than
    /// setting up the passes.
    @inlinable static var bulkEditMinimumRows: Int { 32 }

    /// A bulk edit is used only while the run names fewer than one row in this many of
    /// the list: beyond that, every leaf is touched anyway, and merging the new items
    /// with all rows, or walking both snapshots, costs less.
    @inlinable static var bulkEditListFraction: Int { 8 }

    /// Bulk edits naming at least this many ids cut each pass in two halves that run on
    /// two threads, and sort the items to place and the stored items on two threads.
    @inlinable static var parallelEditMinimumIDs: Int { 256 }

    /// A bulk edit naming at least this many ids hashes them on two threads: hashing
    /// a string id takes about 50 ns, and handing half of them to another thread about
    /// as long as hashing a thousand.
    @inlinable static var parallelHashMinimumIDs: Int { 4_096 }

    /// A bulk edit of a run naming at least this many rows, in a list of at least
    /// ``lateCallWaitMinimumListRows`` rows, waits up to ``lingerNanoseconds`` for a
    /// late call to join it (see ``_EditStrategy/waitsForLateCalls(namedRows:rowCount:)``):
    /// such an edit takes milliseconds, so the wait costs a few percent at most.
    @inlinable static var lateCallWaitMinimumRows: Int { 1_024 }

    /// See ``lateCallWaitMinimumRows``.
    @inlinable static var lateCallWaitMinimumListRows: Int { 131_072 }

    /// A bulk edit of an id index of at least this many entries writes its ids into the
    /// index's overlay instead of copying the leaves they fall into (see ``_IDIndex``).
    /// Below it, the leaves are few and copying them costs little.
    @inlinable static var idOverlayMinimumEntries: Int { 65_536 }

    /// The overlay holds at most one entry in this many of the index's main entries: a
    /// bulk edit that leaves it larger folds it into the main entries, and a bulk edit
    /// of more ids into an index without overlay edits the main entries.
    @inlinable static var idOverlayListFraction: Int { 16 }

    // MARK: Adding and removing many rows one call at a time

    /// An `add` of at least this many items is merged with every row in one pass ...
    @inlinable static var mergeMinimumItems: Int { 64 }

    /// ... when the items are at least one in this many of the rows; fewer items are
    /// placed one at a time, each with a search.
    @inlinable static var mergeListFraction: Int { 8 }

    /// When more than one row in this many goes in a removal, the rows that stay are
    /// rebuilt into a new tree instead of removing each row from the old one.
    @inlinable static var rebuildRemovedFraction: Int { 8 }

    /// Building rows from at least this many items (a bulk load, `replaceAll(with:)`,
    /// the first `add` into an empty list) sorts the two halves and builds the id index
    /// on separate threads.
    @inlinable static var parallelBuildMinimumItems: Int { 16_384 }

    // MARK: Computing batches

    /// When the touched ids are at least one in this many of the rows of both snapshots
    /// together, the batch is computed by walking both snapshots instead of finding each
    /// touched row in each of them.
    @inlinable static var walkBothSnapshotsFraction: Int { 16 }

    /// A sectioned batch finds every section's start by walking its snapshots when its
    /// changed rows, each weighted by this, are at least the sections plus the leaves:
    /// the walk searches each section's start inside a leaf, while bounding the
    /// section of one changed row takes three searches from the root.
    @inlinable static var walkSectionsChangedRowWeight: Int { 32 }

    /// A walk for every section's first row (``_CountedBTree/runStarts(by:concurrently:)``)
    /// of a list of at least this many sections goes on two threads: each section's
    /// start costs a search in a leaf that is seldom in the cache, about 1.7 µs, and
    /// handing half to another thread about 50 µs.
    @inlinable static var parallelSectionWalkMinimumSections: Int { 256 }

    // MARK: The diff queue's hand-offs

    /// How long a drain that ran out of commands keeps polling for the next one before
    /// its thread sleeps, and how soon after a drain ran out a submission must come to
    /// make the next drain poll at all. Waking a sleeping thread costs more than placing
    /// a row in a large list, so when calls come this quickly polling wins. Also the
    /// longest a large bulk edit waits for a late call (``lateCallWaitMinimumRows``).
    @inlinable static var lingerNanoseconds: UInt64 { 200_000 }

    // MARK: Storage

    /// About how many bytes of elements a leaf of the row tree and of the id index holds.
    @inlinable static var leafBytes: Int { 16_384 }

    /// The most elements a leaf holds, however small the elements ...
    @inlinable static var leafMaximumElements: Int { 512 }

    /// ... and the fewest a full leaf holds, however large they are.
    @inlinable static var leafMinimumElements: Int { 16 }

    /// The last holder of a batch of at least this many changed rows yields its core
    /// before freeing what the batch replaced (see ``_SharedBatch/finish()``): freeing a
    /// bulk edit's replaced leaves takes milliseconds, a yield about a microsecond.
    @inlinable static var yieldBeforeFreeingChangedRows: Int { 4_096 }

    /// A list of at most this many rows keeps no id index: a lookup by id reads its
    /// rows, which costs less than hashing the id, and a change then copies one leaf,
    /// not two. A list of more rows keeps one.
    @inlinable static var unindexedListMaximumRows: Int { 64 }

    /// The most children a branch of either tree holds.
    @inlinable static var branchChildren: Int { 32 }

    /// The most emptied leaf buffers kept per element type for later leaf copies: enough
    /// for the leaves a few one-row changes replace, while bounding what is kept to a
    /// few hundred kilobytes per type.
    @inlinable static var spareLeavesPerType: Int { 16 }
}

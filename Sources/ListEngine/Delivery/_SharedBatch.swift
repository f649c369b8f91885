#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// One published batch, shared by the renderers it is sent to, and released by the last
/// of them to be done with it.
///
/// Releasing a batch releases its `old` snapshot, and with it, if nothing else holds
/// them, the tree nodes the change replaced. Freeing those costs time in proportion to the
/// change. Were it left to
/// whichever thread lets go last, it would often land on the diff queue, whose next batch
/// would wait for it: a renderer that is quick to apply a batch lets go before the diff
/// queue has returned from sending it. The diff queue therefore keeps no reference to a
/// batch it sent; the renderers' queues, which work beside it, free the replaced nodes.
///
/// The arrays the bulk edit that made the batch worked with (``_BulkEditLeftovers``) go
/// with the batch, for the same reason: they hold the replaced rows too, and freeing
/// them on the diff queue would delay the batch (before sending it) or free those rows
/// there (after).
///
/// Every holder reads the batch through ``batch`` and says it is done with ``finish()``,
/// keeping no copy past that call. After the last ``finish()`` the batch is dropped.
///
/// ```swift
/// let shared = _SharedBatch(batch, holders: receivers.count)
/// for box in receivers { _send(shared, to: box) }   // each calls finish() when done
/// ```
///
/// The batch lives in memory of its own, which the last ``finish()`` destroys and
/// frees, and the object refers to it by pointer: the object's `deinit` runs in generic
/// code, where destroying a stored `ChangeBatch<Item>` would first look up its type's
/// metadata at run time, on every batch, for a field that is empty by then anyway.
///
/// Safety of `@unchecked Sendable`: `content` and `leftovers` are written once, in
/// `init` (before the object is shared); the batch is read by holders only before their
/// own ``finish()``, the leftovers never, and both are destroyed by the one holder whose
/// ``finish()`` brings the count to zero. Each ``finish()`` decrements with release
/// ordering after the holder's last read, and the last one acquires before it destroys
/// them, so every read happens before the destruction, and no two threads ever destroy
/// them. `ChangeBatch` and `_BulkEditLeftovers` are `Sendable`.
@usableFromInline final class _SharedBatch<Item: Hashable & DataSourceComparable>: @unchecked Sendable {
    /// The batch, until the last holder finishes.
    @usableFromInline let content: UnsafeMutablePointer<ChangeBatch<Item>>
    /// What the bulk edit that made the batch worked with, if one did, freed with the
    /// batch: its stored items are the replaced rows the batch's `old` snapshot holds.
    @usableFromInline let leftovers: UnsafeMutablePointer<_BulkEditLeftovers<Item>>?
    /// The holders that have not finished yet.
    @usableFromInline let remainingHolders: Atomic<Int>

    /// Shares `batch` among `holders` holders.
    ///
    /// - Parameters:
    ///   - batch: the published batch.
    ///   - holders: how many times ``finish()`` will be called; at least 1.
    ///   - leftovers: what the bulk edit that made the batch worked with, to be freed
    ///     with it.
    @inlinable init(_ batch: consuming ChangeBatch<Item>, holders: Int, leftovers: consuming _BulkEditLeftovers<Item>? = nil) {
        precondition(holders >= 1, "A shared batch needs a holder")
        remainingHolders = Atomic(holders)
        content = .allocate(capacity: 1)
        content.initialize(to: batch)
        if let kept = leftovers {
            let pointer = UnsafeMutablePointer<_BulkEditLeftovers<Item>>.allocate(capacity: 1)
            pointer.initialize(to: kept)
            self.leftovers = pointer
        } else {
            self.leftovers = nil
        }
    }

    /// Destroys the batch if some holder never finished.
    @inlinable deinit {
        if remainingHolders.load(ordering: .acquiring) > 0 { destroyContent() }
    }

    /// Destroys and frees the batch and the leftovers.
    @inlinable func destroyContent() {
        content.deinitialize(count: 1)
        content.deallocate()
        if let leftovers {
            leftovers.deinitialize(count: 1)
            leftovers.deallocate()
        }
    }

    /// The batch. Only valid before the caller's ``finish()``.
    ///
    /// - Complexity: O(1).
    @inlinable var batch: ChangeBatch<Item> {
        precondition(isHeld, "A shared batch was read after every holder finished")
        return content.pointee
    }

    /// Whether a holder has yet to finish.
    @inlinable var isHeld: Bool { remainingHolders.load(ordering: .acquiring) > 0 }

    /// Records that one holder is done with the batch; the last one destroys it.
    ///
    /// The last holder first yields its core when the batch changed at least
    /// ``_Tuning/yieldBeforeFreeingChangedRows`` rows.
    ///
    /// - Complexity: O(1), plus, for the last holder, freeing what only the batch held:
    ///   O(*k* log *n*) nodes for *k* changed rows of *n*.
    @inlinable func finish() {
        let remaining = remainingHolders.subtract(1, ordering: .acquiringAndReleasing).newValue
        precondition(remaining >= 0, "A shared batch was finished more often than it has holders")
        guard remaining == 0 else { return }
        // Freeing what a large change replaced takes milliseconds. A thread the renderer
        // has just woken (one waiting for this batch) runs first, should it be queued
        // behind this one for its core.
        if content.pointee._changedRowCount >= _Tuning.yieldBeforeFreeingChangedRows { sched_yield() }
        destroyContent()
    }
}

import Dispatch
import Synchronization

/// One attachment: where and how batches are delivered.
@usableFromInline final class _RendererBox<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline let token: RendererToken
    /// A serial queue (targeting the caller's queue, if one was given), so batches run
    /// one at a time and in order even when the caller passed a concurrent queue.
    @usableFromInline let queue: DispatchQueue
    @usableFromInline let deliver: @Sendable (ChangeBatch<Item>) -> Void
    @usableFromInline let isDetached = Atomic<Bool>(false)

    @inlinable init(token: RendererToken, queue: DispatchQueue, deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void) {
        self.token = token
        self.queue = queue
        self.deliver = deliver
    }
}

/// Which renderers receive batches, and which snapshot reads outside a renderer see.
///
/// Reads (`snapshot`, `count`, subscripts) made outside `render(_:)` see the newest
/// version that every renderer has finished rendering; with no renderer that has
/// rendered anything, the newest computed version. (Reads inside `render(_:)` see that
/// batch's snapshot; see `_RenderingContext`.)
@usableFromInline struct _DeliveryLedger<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline struct Entry: Sendable {
        @usableFromInline let box: _RendererBox<Item>
        @usableFromInline var isReceiving = false
        @usableFromInline var rendered: ListSnapshot<Item>?

        @inlinable init(box: _RendererBox<Item>) {
            self.box = box
        }
    }

    @usableFromInline var entries: [RendererToken: Entry] = [:]
    @usableFromInline var latest: ListSnapshot<Item>
    @usableFromInline var delivered: ListSnapshot<Item>
    @usableFromInline var nextToken = 0

    @inlinable init(initial: ListSnapshot<Item>) {
        latest = initial
        delivered = initial
    }

    /// Registers a renderer; it receives nothing until `startReceiving`.
    @inlinable mutating func register(queue: DispatchQueue, deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void) -> _RendererBox<Item> {
        nextToken += 1
        let box = _RendererBox(token: RendererToken(rawValue: nextToken), queue: queue, deliver: deliver)
        entries[box.token] = Entry(box: box)
        return box
    }

    /// Called on the diff queue when the attach batch is sent. Returns `false` if the
    /// renderer was detached in the meantime.
    @inlinable mutating func startReceiving(_ token: RendererToken) -> Bool {
        guard entries[token] != nil else { return false }
        entries[token]?.isReceiving = true
        return true
    }

    /// Removes a renderer. Returns its box, or `nil` if it was not attached.
    @inlinable mutating func unregister(_ token: RendererToken) -> _RendererBox<Item>? {
        guard let entry = entries.removeValue(forKey: token) else { return nil }
        updateDelivered()
        return entry.box
    }

    /// Records a newly computed version; returns the renderers to send its batch to.
    @inlinable mutating func computed(_ snapshot: ListSnapshot<Item>) -> [_RendererBox<Item>] {
        latest = snapshot
        updateDelivered()
        return receivingBoxes
    }

    /// Records that a renderer finished rendering the batch that leads to `snapshot`.
    @inlinable mutating func rendered(_ token: RendererToken, _ snapshot: ListSnapshot<Item>) {
        guard entries[token] != nil else { return }
        entries[token]?.rendered = snapshot
        updateDelivered()
    }

    /// The renderers currently receiving batches.
    ///
    /// Closures, not key paths: these run for every batch, and a key path into a generic
    /// type is instantiated at run time on each use.
    @inlinable var receivingBoxes: [_RendererBox<Item>] {
        entries.values.filter { $0.isReceiving }.map { $0.box }
    }

    @inlinable mutating func updateDelivered() {
        let slowest = entries.values.compactMap { $0.rendered }.min { $0.version < $1.version }
        delivered = slowest ?? latest
    }
}

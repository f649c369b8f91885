import Dispatch
import Synchronization

/// One attachment: where and how batches are delivered.
final class _RendererBox<Item: Hashable & DataSourceComparable>: Sendable {
    let token: RendererToken
    /// A serial queue (targeting the caller's queue, if one was given), so batches run
    /// one at a time and in order even when the caller passed a concurrent queue.
    let queue: DispatchQueue
    let deliver: @Sendable (ChangeBatch<Item>) -> Void
    let isDetached = Atomic<Bool>(false)

    init(token: RendererToken, queue: DispatchQueue, deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void) {
        self.token = token
        self.queue = queue
        self.deliver = deliver
    }
}

/// Which renderers receive batches, and which snapshot reads should see.
///
/// Reads (`snapshot`, `count`, subscripts) see the newest version that every renderer
/// has finished rendering, so a renderer that reads the data source while rendering a
/// batch never sees rows it has not applied yet. With no renderer that has rendered
/// anything, reads see the newest computed version.
struct _DeliveryLedger<Item: Hashable & DataSourceComparable> {
    private struct Entry {
        let box: _RendererBox<Item>
        var isReceiving = false
        var rendered: ListSnapshot<Item>?
    }

    private var entries: [RendererToken: Entry] = [:]
    private var latest: ListSnapshot<Item>
    private(set) var delivered: ListSnapshot<Item>
    private var nextToken = 0

    init(initial: ListSnapshot<Item>) {
        latest = initial
        delivered = initial
    }

    /// Registers a renderer; it receives nothing until `startReceiving`.
    mutating func register(queue: DispatchQueue, deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void) -> _RendererBox<Item> {
        nextToken += 1
        let box = _RendererBox(token: RendererToken(rawValue: nextToken), queue: queue, deliver: deliver)
        entries[box.token] = Entry(box: box)
        return box
    }

    /// Called on the diff queue when the attach batch is sent. Returns `false` if the
    /// renderer was detached in the meantime.
    mutating func startReceiving(_ token: RendererToken) -> Bool {
        guard entries[token] != nil else { return false }
        entries[token]?.isReceiving = true
        return true
    }

    /// Removes a renderer. Returns its box, or `nil` if it was not attached.
    mutating func unregister(_ token: RendererToken) -> _RendererBox<Item>? {
        guard let entry = entries.removeValue(forKey: token) else { return nil }
        updateDelivered()
        return entry.box
    }

    /// Records a newly computed version; returns the renderers to send its batch to.
    mutating func computed(_ snapshot: ListSnapshot<Item>) -> [_RendererBox<Item>] {
        latest = snapshot
        updateDelivered()
        return receivingBoxes
    }

    /// Records that a renderer finished rendering the batch that leads to `snapshot`.
    mutating func rendered(_ token: RendererToken, _ snapshot: ListSnapshot<Item>) {
        guard entries[token] != nil else { return }
        entries[token]?.rendered = snapshot
        updateDelivered()
    }

    /// The renderers currently receiving batches.
    var receivingBoxes: [_RendererBox<Item>] {
        entries.values.filter(\.isReceiving).map(\.box)
    }

    private mutating func updateDelivered() {
        let slowest = entries.values.compactMap(\.rendered).min { $0.version < $1.version }
        delivered = slowest ?? latest
    }
}

import Dispatch
import Synchronization

/// The serial queues that renderers' batches run on: one per renderer object and
/// target queue, shared by every data source the renderer is attached to.
///
/// ``ListDataSource/detach(_:)`` does not wait for a render in progress (a renderer may
/// detach itself from inside `render(_:)`). A renderer moved from one data source to
/// another may therefore still be rendering a batch of the first when the second sends
/// its attach batch. On one serial queue, the first render ends before the second
/// begins: a renderer's `render(_:)` calls never overlap, whichever data sources they
/// come from.
@usableFromInline enum _RendererQueues {
    struct Key: Hashable {
        let renderer: ObjectIdentifier
        let target: ObjectIdentifier?
    }

    struct Entry {
        /// Kept alive by the attachments that use it, not by this table.
        weak var queue: DispatchQueue?
    }

    struct Table {
        var entries: [Key: Entry] = [:]
        /// When the table holds this many entries, those whose queue is gone are removed.
        var pruneAt = 64
    }

    static let table = Mutex(Table())

    /// The queue for `renderer`'s batches, targeting `target` (or, without one, a queue
    /// at the diff queue's quality of service); `nil` for a fresh queue of its own.
    ///
    /// - Complexity: O(1) amortized.
    @usableFromInline static func queue(for renderer: ObjectIdentifier?, target: DispatchQueue?) -> DispatchQueue {
        // Without a queue of the caller's, the queue runs at the diff queue's quality of
        // service: handing a batch to a thread of the same pool avoids waking a thread of
        // another one, which halves the latency of a one-row update.
        func makeQueue() -> DispatchQueue {
            target.map { DispatchQueue(label: "ListEngine.ListDataSource.delivery", target: $0) }
                ?? DispatchQueue(label: "ListEngine.ListDataSource.delivery", qos: .userInitiated)
        }
        guard let renderer else { return makeQueue() }
        let key = Key(renderer: renderer, target: target.map(ObjectIdentifier.init))
        return table.withLock { table in
            if let queue = table.entries[key]?.queue { return queue }
            if table.entries.count >= table.pruneAt {
                table.entries = table.entries.filter { $0.value.queue != nil }
                table.pruneAt = max(64, table.entries.count * 2)
            }
            let queue = makeQueue()
            table.entries[key] = Entry(queue: queue)
            return queue
        }
    }
}

import Dispatch
import Synchronization

/// The last renderer token handed out, by any data source: a token names one attachment
/// of one data source, so tokens of different data sources never compare equal.
@usableFromInline let _rendererTokens = Atomic<Int>(0)

/// One attachment: where and how batches are delivered.
@usableFromInline final class _RendererBox<Item: Hashable & DataSourceComparable>: Sendable {
    @usableFromInline let token: RendererToken
    /// The attached renderer object; `nil` for a ``ListDataSource/batches()`` stream.
    @usableFromInline let renderer: ObjectIdentifier?
    /// A serial queue (targeting the caller's queue, if one was given), so batches run
    /// one at a time and in order even when the caller passed a concurrent queue.
    @usableFromInline let queue: DispatchQueue
    @usableFromInline let deliver: @Sendable (ChangeBatch<Item>) -> Void
    /// Called when the data source goes away while still attached (a stream ends).
    @usableFromInline let end: (@Sendable () -> Void)?
    @usableFromInline let isDetached = Atomic<Bool>(false)
    /// The `flush()` calls waiting for this queue to run past what was sent before them,
    /// or `nil` once detached: a detached renderer is waited for no longer.
    @usableFromInline let flushWaits = LockedState<[_FlushWait]?>([])

    @inlinable init(
        token: RendererToken, renderer: ObjectIdentifier?, queue: DispatchQueue,
        deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void, end: (@Sendable () -> Void)?
    ) {
        self.token = token
        self.renderer = renderer
        self.queue = queue
        self.deliver = deliver
        self.end = end
    }

    /// Marks the renderer detached: nothing more is rendered, and waiting flushes go on.
    @inlinable func markDetached() {
        isDetached.store(true, ordering: .releasing)
        let waits = flushWaits.withLock { waits in
            defer { waits = nil }
            return waits ?? []
        }
        for wait in waits { wait.finish() }
    }

    /// Makes `wait` finish once this queue has run everything sent so far, or at detach.
    @inlinable func finishAfterSentBatches(_ wait: _FlushWait) {
        let isWaiting = flushWaits.withLock { waits in
            guard waits != nil else { return false }
            waits?.append(wait)
            return true
        }
        guard isWaiting else { return wait.finish() }
        queue.async { [self] in
            flushWaits.withLock { $0?.removeAll { $0 === wait } }
            wait.finish()
        }
    }
}

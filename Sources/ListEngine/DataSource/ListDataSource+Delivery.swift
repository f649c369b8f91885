import Dispatch
import Synchronization

extension ListDataSource {
    /// Starts delivering batches to `renderer`.
    ///
    /// The renderer first receives the *attach batch*, which inserts every current row
    /// (from the empty version 0 to the current version), then every later batch in
    /// version order, each exactly once, with no gaps. A slow renderer never delays the
    /// diff queue or other renderers: its batches wait on its own queue. The data source
    /// keeps the renderer alive until ``detach(_:)``.
    ///
    /// Attaching a renderer that is already attached to this data source changes nothing
    /// and returns its token: it keeps receiving each version once, on the first
    /// attachment's queue.
    ///
    /// - Parameters:
    ///   - renderer: the renderer.
    ///   - queue: where `render(_:)` is called; `nil` for a private serial queue. `.main`
    ///     works, including in programs that run `dispatchMain()`. A concurrent queue is
    ///     fine too: calls are still serialized.
    /// - Returns: the token to pass to ``detach(_:)``.
    /// - Complexity: O(*r*) on the caller for *r* attached renderers (it looks for this
    ///   renderer among them); O(*n*) to build the attach batch on the diff queue.
    @discardableResult
    @inlinable public func attach<Renderer: ListRenderer>(_ renderer: Renderer, on queue: DispatchQueue? = nil) -> RendererToken
    where Renderer.Item == Item {
        _attach(renderer: ObjectIdentifier(renderer), on: queue) { renderer.render($0) }
    }

    /// Starts delivering batches to a main-actor renderer, on the main queue.
    ///
    /// The same delivery as ``attach(_:on:)`` with `.main`: an attach batch, then every
    /// later batch in version order, each exactly once; `render(_:)` runs on the main
    /// actor. May be called from any thread. Attaching a renderer that is already
    /// attached changes nothing and returns its token.
    ///
    /// - Parameter renderer: the renderer; the data source keeps it alive until
    ///   ``detach(_:)``.
    /// - Returns: the token to pass to ``detach(_:)``.
    /// - Complexity: O(*r*) on the caller for *r* attached renderers; O(*n*) to build the
    ///   attach batch on the diff queue.
    @discardableResult
    @inlinable public func attach<Renderer: MainActorListRenderer>(_ renderer: Renderer) -> RendererToken
    where Renderer.Item == Item {
        _attach(renderer: ObjectIdentifier(renderer), on: .main) { batch in
            // Delivered by a serial queue that targets the main queue: on the main thread.
            MainActor.assumeIsolated { renderer.render(batch) }
        }
    }

    /// Stops delivering to the renderer attached with `token`; batches not yet rendered
    /// are dropped. Detaching twice, or an unknown token, does nothing.
    ///
    /// A render already in progress is not waited for (a renderer may detach itself from
    /// inside `render(_:)`), so it can still be running when this returns. Attached to
    /// this data source again, the renderer gets its attach batch only once that render
    /// has returned. A renderer moved to another data source, though, may be rendering
    /// the last batch of the first while the attach batch of the second arrives, on
    /// another thread; a renderer that is moved that way must allow it
    /// (`WebListRenderer` and `WebListHub` do).
    /// - Parameter token: the token ``attach(_:on:)`` returned.
    /// - Complexity: O(*r*) for *r* attached renderers.
    @inlinable public func detach(_ token: RendererToken) {
        guard let box = _shared.withLock({ $0.ledger.unregister(token) }) else { return }
        box.markDetached()
        guard let renderer = box.renderer else { return }
        let queue = box.queue
        queue.async { [weak self] in
            self?._shared.withLock { $0.ledger.finishedDraining(renderer, queue: queue) }
        }
    }

    /// The batches as an async sequence: the attach batch, then every later batch.
    ///
    /// Cancelling the task that iterates it, or dropping the stream, detaches it. The
    /// stream ends when the data source is released, after its last batch. Batches not
    /// yet read wait in the stream, as a slow renderer's wait in its queue. A batch
    /// counts as rendered once it is in the stream, so reads of the data source in the
    /// loop body may be ahead of the batch in hand: use `batch.new` for its rows.
    /// - Returns: the stream of batches.
    /// - Complexity: O(1) on the caller.
    /// ```swift
    /// for await batch in source.batches() { print(batch.version) }
    /// ```
    @inlinable public func batches() -> AsyncStream<ChangeBatch<Item>> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeBatch<Item>.self)
        let token = _attach(renderer: nil, on: nil, end: { continuation.finish() }) { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.detach(token) }
        return stream
    }

    /// Waits until every mutation submitted before this call has been delivered to every
    /// attached renderer, and returns the resulting snapshot.
    ///
    /// A renderer detached while the flush waits is waited for no longer, even if it is
    /// still inside `render(_:)`.
    ///
    /// - Returns: the snapshot after those mutations.
    /// - Complexity: O(1) on the caller; it resumes once the diff queue has applied the
    ///   earlier mutations and every attached renderer has rendered their batches.
    @discardableResult
    @inlinable public func flush() async -> ListSnapshot<Item> {
        await withCheckedContinuation { continuation in
            _submit(.flush(continuation))
        }
    }

    @inlinable func _attach(
        renderer: ObjectIdentifier?, on queue: DispatchQueue?, end: (@Sendable () -> Void)? = nil,
        deliver: @escaping @Sendable (ChangeBatch<Item>) -> Void
    ) -> RendererToken {
        // Without a queue of the caller's, the private queue targets the pool the diff
        // queues run on, so that the renderers of many lists share its few threads (see
        // `_SharedQueues`).
        func serialQueue() -> DispatchQueue {
            DispatchQueue(label: "ListEngine.ListDataSource.delivery", target: queue ?? _SharedQueues.pool)
        }
        // Registered and queued under one lock: a second `attach` of the renderer, and a
        // `flush()` after it, come after the attach batch.
        let (token, action, resume) = _shared.withLock { state in
            let (box, isNew, draining) = state.ledger.register(renderer: renderer, queue: serialQueue(), deliver: deliver, end: end)
            // Attached again while its last attachment's queue may still be rendering:
            // nothing runs on the new queue before the old one is through.
            var resume: (@Sendable () -> Void)? = nil
            if let draining {
                box.queue.suspend()
                resume = { draining.async { box.queue.resume() } }
            }
            return (box.token, isNew ? state.pipeline.submit(.attach(box), at: DispatchTime.now().uptimeNanoseconds) : .none, resume)
        }
        resume?()
        _scheduleDrain(if: action)
        return token
    }

    // MARK: - Sending batches

    /// Takes the engine's batch for what was applied since the last one, if anything
    /// visible changed, records it in the ledger and sends it to every renderer.
    @inlinable func _publish() {
        // What the last bulk edit worked with goes with its batch, to be freed with it.
        let leftovers = _engine.takeBulkEditLeftovers()
        guard let batch = _engine.takeBatch() else { return }
        let receivers = _shared.withLock { $0.ledger.computed(batch.new) }
        guard !receivers.isEmpty else { return }
        // The batch and the leftovers now live only in `shared`, which the renderers'
        // blocks release: a copy left here could outlive them and be freed here.
        let shared = _SharedBatch(consume batch, holders: receivers.count, leftovers: consume leftovers)
        for box in receivers { _send(shared, to: box) }
    }

    @inlinable func _startDelivering(to box: _RendererBox<Item>) {
        guard _shared.withLock({ $0.ledger.startReceiving(box.token, attached: _engine.published) }) else { return }
        _send(_SharedBatch(.attach(to: _engine.published), holders: 1), to: box)
    }

    /// Hands the batch to the renderer on its queue; that block is one of its holders.
    @inlinable func _send(_ shared: _SharedBatch<Item>, to box: _RendererBox<Item>) {
        box.queue.async {
            if !box.isDetached.load(ordering: .acquiring) {
                self._deliver(shared.batch, to: box)
            }
            shared.finish()
        }
    }

    /// Runs the renderer and records what it shows. Called on the renderer's queue.
    ///
    /// While it renders, this data source's reads on this thread return `batch.new`.
    @inlinable func _deliver(_ batch: ChangeBatch<Item>, to box: _RendererBox<Item>) {
        _RenderingContext.rendering(batch.new, of: ObjectIdentifier(self)) {
            box.deliver(batch)
        }
        _shared.withLock { $0.ledger.rendered(box.token, batch.new) }
    }

    /// Resumes `continuation` once every renderer's queue has run past what was sent so far.
    @inlinable func _resumeAfterDelivery(_ continuation: CheckedContinuation<ListSnapshot<Item>, Never>) {
        let snapshot = _engine.published
        let receivers = _shared.withLock { $0.ledger.receivingBoxes }
        let group = DispatchGroup()
        for box in receivers { box.finishAfterSentBatches(_FlushWait(entering: group)) }
        group.notify(queue: .global()) { continuation.resume(returning: snapshot) }
    }
}

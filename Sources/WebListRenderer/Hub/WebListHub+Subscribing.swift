extension WebListHub {
    /// Adds a client. Its sequence yields a snapshot first (as soon as the hub has been
    /// attached), then batch frames, and ends when it is cancelled or the hub finishes.
    ///
    /// Read the sequence from one task at a time. Cancelling that task, calling
    /// ``WebListSubscription/cancel()`` or dropping the sequence removes the client.
    ///
    /// ```swift
    /// for await frame in hub.subscribe() { send(frame.json) }
    /// ```
    /// - Returns: the client's frames.
    /// - Complexity: O(1); the snapshot is formatted when it is read.
    public func subscribe() -> WebListSubscription {
        let limits = _ClientQueue<_WireSnapshot<Item>, _Waiter>.Limits(entries: limits.messages, bytes: limits.bytes)
        let id: Int? = _state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextClientID += 1
            var queue = _Queue(limits: limits)
            if let current = state.current { _ = queue.snapshot(current) }
            state.clients[state.nextClientID] = queue
            return state.nextClientID
        }
        guard let id else { return WebListSubscription(next: { nil }, cancel: {}) }
        return WebListSubscription(next: { await self._next(client: id) }, cancel: { self._unsubscribe(id) })
    }

    func _next(client id: Int) async -> WebListFrame? {
        let entry: _Entry? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: _Waiter) in
                let action = _state.withLock { state -> _Queue.NextAction in
                    guard let index = state.clients.index(forKey: id) else { return .finished }
                    return state.clients.values[index].next(continuation)
                }
                switch action {
                case .deliver(let entry): continuation.resume(returning: entry)
                case .finished: continuation.resume(returning: nil)
                case .suspend: break
                }
            }
        } onCancel: {
            _unsubscribe(id)
        }
        switch entry {
        case .frame(let frame): return frame
        case .snapshot(let snapshot): return snapshot.snapshotFrame(format: format)
        case nil: return nil
        }
    }

    func _unsubscribe(_ id: Int) {
        let waiter = _state.withLock { state -> _Waiter? in
            guard var queue = state.clients.removeValue(forKey: id) else { return nil }
            state.departedResets += queue.resets
            return queue.finish()
        }
        waiter?.resume(returning: nil)
    }
}

/// One hub client's frames: a snapshot, then batches (see ``WebListHub/subscribe()``).
///
/// The sequence ends when it is cancelled, when the task reading it is cancelled, or when
/// the hub finishes. Dropping every copy of it also removes the client from the hub.
public struct WebListSubscription: AsyncSequence, Sendable {
    /// The encoded messages the client receives.
    public typealias Element = WebListFrame

    private let box: _SubscriptionBox

    init(next: @escaping @Sendable () async -> WebListFrame?, cancel: @escaping @Sendable () -> Void) {
        box = _SubscriptionBox(next: next, cancel: cancel)
    }

    /// Ends the sequence and removes the client from the hub. A read in progress returns `nil`.
    ///
    /// - Complexity: O(1), plus freeing the frames still queued for the client.
    public func cancel() { box.cancel() }

    /// Returns an iterator over the client's frames.
    ///
    /// Read from one task at a time: the iterators of one subscription share its queue.
    /// - Returns: an iterator that reads this subscription's frames.
    /// - Complexity: O(1).
    public func makeAsyncIterator() -> Iterator { Iterator(box: box) }

    /// Reads a subscription's frames.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        fileprivate let box: _SubscriptionBox

        /// The next frame, or `nil` when the subscription has ended.
        ///
        /// Suspends while no frame is queued. Cancelling the reading task ends the
        /// subscription and returns `nil`.
        /// - Returns: the next frame, or `nil` when the subscription has ended.
        /// - Complexity: O(1) for a batch frame; O(*n*) to format a snapshot of *n* rows,
        ///   done once per version however many clients read it.
        public mutating func next() async -> WebListFrame? { await box.next() }
    }
}

/// Removes the client when the last copy of its subscription goes away.
private final class _SubscriptionBox: Sendable {
    let next: @Sendable () async -> WebListFrame?
    let cancel: @Sendable () -> Void

    init(next: @escaping @Sendable () async -> WebListFrame?, cancel: @escaping @Sendable () -> Void) {
        self.next = next
        self.cancel = cancel
    }

    deinit { cancel() }
}

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
        _core.subscribe()
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

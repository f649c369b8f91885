extension WebListHub {
    /// Publishes a batch to every client.
    ///
    /// A batch that continues from the last rendered version is encoded once and queued
    /// for every client (a client whose queue is full is reset to a snapshot instead).
    /// The first batch (the attach batch), or one that does not continue, restarts every
    /// client from a snapshot of `batch.new`, with versions shifted when needed so that
    /// the hub's versions keep increasing (see ``WebListRenderer``).
    ///
    /// - Parameter batch: the batch the data source delivers, from `batch.old` (what the
    ///   hub rendered last) to `batch.new`.
    /// - Complexity: O(*c* log *n*) plus formatting the changed rows to encode, then O(1)
    ///   per client, for *c* changes and *n* rows; never waits for a client.
    public func render(_ batch: ChangeBatch<Item>) {
        let waiters = _renderLock.withLock { _ in _publish(batch) }
        for (waiter, entry) in waiters { waiter.resume(returning: entry) }
    }

    /// Updates `current` and every client's queue for `batch`; returns the readers to
    /// wake. Runs under `_renderLock`: only it changes `current`, and renders of one hub
    /// attached to two lists at once (a render of a list it was just detached from may
    /// still be running) must not interleave between reading `current` and writing it.
    func _publish(_ batch: ChangeBatch<Item>) -> [(_Waiter, _Entry)] {
        let previous = _state.withLock { $0.current }
        let (latest, next) = _WireSnapshot.following(previous, with: batch)
        // A batch that continues is encoded once for every client; otherwise every client
        // restarts from `latest`.
        let frame = next == .batch ? WebListFrame(latest.message(for: batch, format: format)) : nil
        return _state.withLock { state in
            state.current = latest
            guard next != .nothing else { return [] }
            if frame != nil { state.batches += 1 }
            var waiters: [(_Waiter, _Entry)] = []
            for index in state.clients.indices {
                let action = frame.map { state.clients.values[index].batch($0, latest: latest) } ?? state.clients.values[index].snapshot(latest)
                if case .resume(let waiter, let entry) = action { waiters.append((waiter, entry)) }
            }
            return waiters
        }
    }
}

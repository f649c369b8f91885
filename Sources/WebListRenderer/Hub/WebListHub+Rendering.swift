extension WebListHub {
    /// Publishes a batch to every client.
    ///
    /// A batch that continues from the last rendered version is encoded once and queued
    /// for every client (a client whose queue is full is reset to a snapshot instead).
    /// The first batch (the attach batch), or one that does not continue, restarts every
    /// client from a snapshot of `batch.new`, with versions shifted when needed so that
    /// the hub's versions keep increasing (see ``WebListRenderer``).
    ///
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
        let waiters: [(_Waiter, _Entry)]
        if let previous, WebListMessage.continues(previous.snapshot, with: batch) {
            // An attach batch of an empty list at version 0 after another: nothing changes.
            if batch.new.version == batch.old.version { return [] }
            let frame = WebListFrame(format.message(for: batch).shiftingVersions(by: previous.versionOffset))
            let latest = _HubSnapshot(snapshot: batch.new, versionOffset: previous.versionOffset)
            waiters = _state.withLock { state in
                state.current = latest
                state.batches += 1
                var waiters: [(_Waiter, _Entry)] = []
                for index in state.clients.indices {
                    if case .resume(let waiter, let entry) = state.clients.values[index].batch(frame, latest: latest) {
                        waiters.append((waiter, entry))
                    }
                }
                return waiters
            }
        } else {
            let versionOffset = WebListMessage.versionOffset(restartingAt: batch.new.version, after: previous?.wireVersion)
            let latest = _HubSnapshot(snapshot: batch.new, versionOffset: versionOffset)
            waiters = _state.withLock { state in
                state.current = latest
                var waiters: [(_Waiter, _Entry)] = []
                for index in state.clients.indices {
                    if case .resume(let waiter, let entry) = state.clients.values[index].snapshot(latest) {
                        waiters.append((waiter, entry))
                    }
                }
                return waiters
            }
        }
        return waiters
    }
}

/// The state of a hub, for either kind of list: the last rendered snapshot and one
/// bounded queue per client. ``WebListHub`` and ``SectionedWebListHub`` wrap one.
///
/// Every batch is encoded once; a batch that continues from the last rendered version
/// is queued for every client, and one that does not (the attach batch, a move to
/// another list) restarts every client from a snapshot. Clients that fall behind are
/// reset to a snapshot by their `_ClientQueue`.
final class _HubCore<Encoding: _WireEncoding>: Sendable {
    typealias Snapshot = _WireSnapshot<Encoding>
    typealias Entry = _ClientEntry<Snapshot>
    typealias Waiter = CheckedContinuation<Entry?, Never>
    typealias Queue = _ClientQueue<Snapshot, Waiter>

    struct State: Sendable {
        /// The last rendered snapshot and its version shift.
        var current: Snapshot?
        var clients: [Int: Queue] = [:]
        var nextClientID = 0
        var batches = 0
        /// Resets of clients that have since left.
        var departedResets = 0
        var isFinished = false
    }

    /// Counters of ``WebListHub/Statistics``.
    struct Statistics {
        var clients: Int
        var batches: Int
        var resets: Int
        var longestQueue: Int
    }

    let format: Encoding
    let limits: Queue.Limits
    let state = LockedState(State())
    /// Held for the whole of each render; see `publish(_:)`.
    let renderLock = LockedState(())

    init(format: Encoding, messages: Int, bytes: Int) {
        self.format = format
        limits = Queue.Limits(entries: messages, bytes: bytes)
    }

    // MARK: Rendering

    func render(_ batch: Encoding.Batch) {
        let waiters = renderLock.withLock { _ in publish(batch) }
        for (waiter, entry) in waiters { waiter.resume(returning: entry) }
    }

    /// Updates `current` and every client's queue for `batch`; returns the readers to
    /// wake. Runs under `renderLock`: only it changes `current`, and renders of one hub
    /// attached to two lists at once (a render of a list it was just detached from may
    /// still be running) must not interleave between reading `current` and writing it.
    private func publish(_ batch: Encoding.Batch) -> [(Waiter, Entry)] {
        let previous = state.withLock { $0.current }
        let (latest, next) = Snapshot.following(previous, with: batch)
        // A batch that continues is encoded once for every client; otherwise every client
        // restarts from `latest`.
        let frame = next == .batch ? WebListFrame(latest.message(for: batch, format: format)) : nil
        return state.withLock { state in
            state.current = latest
            guard next != .nothing else { return [] }
            if frame != nil { state.batches += 1 }
            var waiters: [(Waiter, Entry)] = []
            for index in state.clients.indices {
                let action = frame.map { state.clients.values[index].batch($0, latest: latest) } ?? state.clients.values[index].snapshot(latest)
                if case .resume(let waiter, let entry) = action { waiters.append((waiter, entry)) }
            }
            return waiters
        }
    }

    // MARK: Subscribing

    func subscribe() -> WebListSubscription {
        let limits = limits
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextClientID += 1
            var queue = Queue(limits: limits)
            if let current = state.current { _ = queue.snapshot(current) }
            state.clients[state.nextClientID] = queue
            return state.nextClientID
        }
        guard let id else { return WebListSubscription(next: { nil }, cancel: {}) }
        return WebListSubscription(next: { await self.next(client: id) }, cancel: { self.unsubscribe(id) })
    }

    private func next(client id: Int) async -> WebListFrame? {
        let entry: Entry? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let action = state.withLock { state -> Queue.NextAction in
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
            unsubscribe(id)
        }
        switch entry {
        case .frame(let frame): return frame
        case .snapshot(let snapshot): return snapshot.snapshotFrame(format: format)
        case nil: return nil
        }
    }

    private func unsubscribe(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard var queue = state.clients.removeValue(forKey: id) else { return nil }
            state.departedResets += queue.resets
            return queue.finish()
        }
        waiter?.resume(returning: nil)
    }

    // MARK: Reading and finishing

    var version: Int? { state.withLock { $0.current?.wireVersion } }

    var statistics: Statistics {
        state.withLock { state in
            Statistics(
                clients: state.clients.count,
                batches: state.batches,
                resets: state.departedResets + state.clients.values.reduce(0) { $0 + $1.resets },
                longestQueue: state.clients.values.map(\.pendingCount).max() ?? 0
            )
        }
    }

    func snapshotFrame() -> WebListFrame? {
        guard let current = state.withLock({ $0.current }) else { return nil }
        return current.snapshotFrame(format: format)
    }

    func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            var waiters: [Waiter] = []
            for index in state.clients.indices {
                if let waiter = state.clients.values[index].finish() { waiters.append(waiter) }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}

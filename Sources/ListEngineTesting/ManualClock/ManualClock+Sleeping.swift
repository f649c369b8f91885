import Synchronization

extension ManualClock {
    /// Suspends until the clock has been advanced to `deadline` or past it.
    ///
    /// Returns at once if `deadline` is not after ``now``.
    /// - Parameters:
    ///   - deadline: the instant to sleep until.
    ///   - tolerance: ignored; the clock is exact.
    /// - Throws: `CancellationError` if the task is cancelled, at the moment it is
    ///   cancelled; the sleeper is then removed.
    /// - Complexity: O(*s*) on the caller for *s* tasks sleeping on the clock or waiting in
    ///   ``waitForSleepers(count:)``.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = _state.withLock { $0.allocateSleeper() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = _state.withLock { $0.register(id, deadline: deadline, continuation) }
                switch outcome {
                case .waiting(let satisfied):
                    for waiter in satisfied { waiter.resume() }
                case .due:
                    continuation.resume()
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation = _state.withLock { $0.cancel(id) }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and resumes every sleeper that is due.
    ///
    /// Sleepers are resumed in order of deadline, ties in the order they started
    /// sleeping. A task that goes back to sleep after waking sees the new ``now``.
    /// - Parameter duration: how far to move; not negative.
    /// - Complexity: O(*s* log *s*) for *s* sleepers.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot go back in time (advance by \(duration))")
        let due = _state.withLock { state in
            state.now = state.now.advanced(by: duration)
            return state.takeDue()
        }
        for continuation in due { continuation.resume() }
    }

    /// Moves the clock forward to `instant` (if it is later than ``now``) and resumes
    /// every sleeper that is due, as ``advance(by:)`` does.
    ///
    /// An `instant` not after ``now`` leaves the time as it is.
    /// - Parameter instant: the time to move to.
    /// - Complexity: O(*s* log *s*) for *s* sleepers.
    public func advance(to instant: Instant) {
        let due = _state.withLock { state in
            if state.now < instant { state.now = instant }
            return state.takeDue()
        }
        for continuation in due { continuation.resume() }
    }

    /// How many tasks are sleeping on the clock now.
    ///
    /// - Complexity: O(*s*) for *s* tasks sleeping on the clock or waiting in
    ///   ``waitForSleepers(count:)``.
    public var sleeperCount: Int { _state.withLock { $0.waitingCount } }

    /// The deadlines of the sleeping tasks, earliest first; tasks with equal deadlines
    /// in the order they started sleeping.
    ///
    /// - Complexity: O(*s* log *s*) for *s* sleepers.
    public var pendingDeadlines: [Instant] {
        _state.withLock { state in state.waitingSleepers.map(\.deadline) }
    }

    /// Suspends until at least `count` tasks are sleeping on the clock.
    ///
    /// Use it to let the code under test reach its sleep before calling ``advance(by:)``,
    /// instead of yielding or sleeping for real. Returns early if the task is cancelled.
    /// - Parameter count: how many sleepers to wait for; 1 by default.
    /// - Complexity: O(*s*) on the caller for *s* tasks sleeping on the clock or waiting in
    ///   ``waitForSleepers(count:)``.
    public func waitForSleepers(count: Int = 1) async {
        let id = _state.withLock { $0.allocateSleeper() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = _state.withLock { $0.addWaiter(id, count: count, continuation) }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = _state.withLock { $0.cancelWaiter(id) }
            continuation?.resume()
        }
    }
}

extension ManualClock {
    /// The clock's time and its sleepers, behind the clock's mutex.
    struct _State {
        enum Entry {
            /// Allocated; the task has not yet suspended.
            case allocated
            /// Cancelled before it suspended: it must not wait.
            case cancelled
            case sleeping(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)
            case waiting(count: Int, continuation: CheckedContinuation<Void, Never>)
        }

        enum RegisterOutcome {
            /// The sleeper waits; `satisfied` are `waitForSleepers` calls to resume.
            case waiting(satisfied: [CheckedContinuation<Void, Never>])
            case due
            case cancelled
        }

        var now: Instant
        /// Entries by id; ids grow, so they also give the order of arrival.
        var entries: [Int: Entry] = [:]
        var nextID = 0

        init(now: Instant) { self.now = now }

        mutating func allocateSleeper() -> Int {
            defer { nextID += 1 }
            entries[nextID] = .allocated
            return nextID
        }

        mutating func register(_ id: Int, deadline: Instant, _ continuation: CheckedContinuation<Void, any Error>) -> RegisterOutcome {
            if case .cancelled = entries[id] {
                entries[id] = nil
                return .cancelled
            }
            if deadline <= now {
                entries[id] = nil
                return .due
            }
            entries[id] = .sleeping(deadline: deadline, continuation: continuation)
            return .waiting(satisfied: takeSatisfiedWaiters())
        }

        mutating func cancel(_ id: Int) -> CheckedContinuation<Void, any Error>? {
            switch entries[id] {
            case .allocated:
                entries[id] = .cancelled
                return nil
            case .sleeping(_, let continuation):
                entries[id] = nil
                return continuation
            case .cancelled, .waiting, nil:
                return nil
            }
        }

        mutating func addWaiter(_ id: Int, count: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
            if case .cancelled = entries[id] {
                entries[id] = nil
                return true
            }
            if waitingCount >= count {
                entries[id] = nil
                return true
            }
            entries[id] = .waiting(count: count, continuation: continuation)
            return false
        }

        mutating func cancelWaiter(_ id: Int) -> CheckedContinuation<Void, Never>? {
            switch entries[id] {
            case .allocated:
                entries[id] = .cancelled
                return nil
            case .waiting(_, let continuation):
                entries[id] = nil
                return continuation
            case .cancelled, .sleeping, nil:
                return nil
            }
        }

        var waitingSleepers: [(id: Int, deadline: Instant)] {
            entries.compactMap { id, entry in
                if case .sleeping(let deadline, _) = entry { (id, deadline) } else { nil }
            }
            .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }

        var waitingCount: Int {
            entries.values.reduce(0) { count, entry in
                if case .sleeping = entry { count + 1 } else { count }
            }
        }

        /// Removes and returns the sleepers that are due, in resumption order.
        mutating func takeDue() -> [CheckedContinuation<Void, any Error>] {
            var due: [CheckedContinuation<Void, any Error>] = []
            for sleeper in waitingSleepers where sleeper.deadline <= now {
                if case .sleeping(_, let continuation) = entries.removeValue(forKey: sleeper.id) {
                    due.append(continuation)
                }
            }
            return due
        }

        private mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let sleeping = waitingCount
            var satisfied: [CheckedContinuation<Void, Never>] = []
            for (id, entry) in entries {
                if case .waiting(let count, let continuation) = entry, count <= sleeping {
                    entries[id] = nil
                    satisfied.append(continuation)
                }
            }
            return satisfied
        }
    }
}

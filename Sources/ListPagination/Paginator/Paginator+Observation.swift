extension Paginator {
    /// The states as an async sequence: the current state first, then every change.
    ///
    /// Ending the iteration unsubscribes. The stream finishes when the paginator is
    /// deallocated.
    /// ```swift
    /// for await state in paginator.states() {
    ///     if case .failed(let error) = state { showBanner(error.description) }
    /// }
    /// ```
    /// - Returns: a stream that yields the current state at once, then each state that
    ///   differs from the one before it.
    /// - Complexity: O(1) to subscribe; each later change costs O(1) per subscriber.
    public func states() -> AsyncStream<PaginationState> {
        let (stream, continuation) = AsyncStream.makeStream(of: PaginationState.self)
        _subscribe(continuation) { status in
            continuation.yield(status.state)
            return .states(continuation, last: status.state)
        }
        return stream
    }

    /// Every change of ``status`` (state, indicator, counters), current value first.
    ///
    /// Ending the iteration unsubscribes. The stream finishes when the paginator is
    /// deallocated.
    /// ```swift
    /// for await status in paginator.statuses() {
    ///     renderer.updateStatus { $0.isLoading = status.isShowingLoadingIndicator }
    /// }
    /// ```
    /// - Returns: a stream that yields the current status at once, then each status that
    ///   differs from the one before it.
    /// - Complexity: O(1) to subscribe; each later change costs O(1) per subscriber.
    public func statuses() -> AsyncStream<PaginationStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: PaginationStatus.self)
        _subscribe(continuation) { status in
            continuation.yield(status)
            return .statuses(continuation)
        }
        return stream
    }

    private func _subscribe<Element>(_ continuation: AsyncStream<Element>.Continuation, _ register: (PaginationStatus) -> _Observer) {
        let id = _shared.withLock { shared in
            defer { shared.nextObserverID += 1 }
            return shared.nextObserverID
        }
        continuation.onTermination = { [weak self] _ in
            // Dropped outside the lock.
            let removed = self?._shared.withLock { $0.observers.removeValue(forKey: id) }
            _ = removed
        }
        _shared.withLock { shared in
            shared.observers[id] = register(shared.status)
        }
    }

    /// Sends the status to observers if it changed. Called under the lock after every event.
    func _publish(_ shared: inout _Shared) {
        let status = shared.machine.status
        guard status != shared.status else { return }
        shared.status = status
        for (id, observer) in shared.observers {
            switch observer {
            case .states(let continuation, let last):
                guard status.state != last else { continue }
                shared.observers[id] = .states(continuation, last: status.state)
                continuation.yield(status.state)
            case .statuses(let continuation):
                continuation.yield(status)
            }
        }
    }
}

extension Paginator._Observer {
    func finish() {
        switch self {
        case .states(let continuation, _): continuation.finish()
        case .statuses(let continuation): continuation.finish()
        }
    }
}

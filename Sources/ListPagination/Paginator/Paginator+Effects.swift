extension Paginator {
    typealias _Machine = _PaginationStateMachine<Cursor>

    /// Feeds one event to the state machine and performs the action it returns.
    ///
    /// Data source mutations are submitted under the lock, so they reach the data source
    /// in the order the machine decided them. Tasks are cancelled after the lock is
    /// released, because cancellation handlers run synchronously.
    /// - Parameter page: the loaded page, for a `pageLoaded` event.
    func _handle(page: Page<Item, Cursor>? = nil, _ event: (inout _Machine) -> _Machine.Action) {
        let cancelled: [Task<Void, Never>] = _shared.withLock { shared in
            let action = event(&shared.machine)
            shared.machine._checkInvariants()
            var cancelled: [Task<Void, Never>] = []
            switch action {
            case .none, .showIndicator:
                break
            case .startLoad(let request, let episode):
                cancelled += [shared.loadTask, shared.retryTimer].compactMap { $0 }
                shared.retryTimer = nil
                shared.loadTask = _startLoading(request)
                if let episode {
                    cancelled += [shared.indicatorTimer].compactMap { $0 }
                    shared.indicatorTimer = _startTimer(after: loadingIndicatorDelay) { $0.indicatorDelayElapsed(episode) }
                }
            case .scheduleRetry(let token, let delay):
                shared.loadTask = nil
                cancelled += [shared.retryTimer].compactMap { $0 }
                shared.retryTimer = _startTimer(after: delay) { $0.backoffElapsed(token) }
            case .applyPage(let mode):
                shared.loadTask = nil
                if let page {
                    switch mode {
                    case .append: dataSource.add(page.items)
                    case .replace: dataSource.replaceAll(with: page.items)
                    }
                }
            case .fail:
                shared.loadTask = nil
            case .reset:
                cancelled += [shared.loadTask, shared.retryTimer].compactMap { $0 }
                shared.loadTask = nil
                shared.retryTimer = nil
                dataSource.removeAll()
            }
            if !shared.machine.isLoading, let timer = shared.indicatorTimer {
                cancelled.append(timer)
                shared.indicatorTimer = nil
            }
            _publish(&shared)
            return cancelled
        }
        for task in cancelled { task.cancel() }
    }

    /// Starts the task that loads `request` and reports back.
    private func _startLoading(_ request: _Machine.Request) -> Task<Void, Never> {
        Task { [weak self, loader] in
            let result: Result<Page<Item, Cursor>, PaginationError>
            do {
                result = .success(try await loader.loadPage(at: request.cursor))
            } catch {
                result = .failure(PaginationError(error))
            }
            guard let self else { return }
            switch result {
            case .success(let page):
                self._handle(page: page) {
                    $0.pageLoaded(request.token, nextCursor: page.nextCursor, totalItems: page.totalItems, totalPages: page.totalPages)
                }
                // A page that leaves the last visible row near the end (it added few
                // rows, or only rows already loaded) loads the next one: no new row
                // appears to ask for it.
                guard request.mode == .append, self._shared.withLock({ $0.machine.lastAppearedOffset != nil }) else { return }
                await self.dataSource.flush()
                let count = self.dataSource.count
                self._handle { $0.pageApplied(count: count) }
            case .failure(let error):
                let unit = self.retryPolicy.jitter > 0 ? Double.random(in: 0..<1) : 0
                self._handle { $0.pageFailed(request.token, error: error, randomUnit: unit) }
            }
        }
    }

    /// Starts a task that sends `event` once `delay` has passed on the clock, unless
    /// cancelled.
    ///
    /// The deadline is read from the clock here, when the timer is started, not when
    /// the task first runs: a task may start late (on a busy executor, or after a test
    /// moved its clock), and the delay counts from what started it (a load, a failure).
    private func _startTimer(after delay: Duration, _ event: @escaping @Sendable (inout _Machine) -> _Machine.Action) -> Task<Void, Never> {
        let deadline = clock.now.advanced(by: delay)
        return Task { [weak self, clock] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            self?._handle(event)
        }
    }
}

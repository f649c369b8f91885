extension Paginator {
    typealias _Machine = _PaginationStateMachine<Cursor>

    /// Feeds one event to the state machine and performs the action it returns.
    ///
    /// Data source mutations are submitted under the lock, so they reach the data source
    /// in the order the machine decided them. Tasks are cancelled after the lock is
    /// released, because cancellation handlers run synchronously.
    /// - Parameter page: the loaded page, for a `pageLoaded` event.
    /// - Returns: the action the machine returned.
    @discardableResult
    func _handle(page: Page<Item, Cursor>? = nil, _ event: (inout _Machine) -> _Machine.Action) -> _Machine.Action {
        _handleShared(page: page) { event(&$0.machine) }
    }

    /// ``_handle(page:_:)`` for an event that also updates the paginator's own state
    /// under the same lock.
    @discardableResult
    func _handleShared(page: Page<Item, Cursor>? = nil, _ event: (inout _Shared) -> _Machine.Action) -> _Machine.Action {
        let (action, cancelled): (_Machine.Action, [Task<Void, Never>]) = _shared.withLock { shared in
            let action = event(&shared)
            shared.machine._checkInvariants()
            var cancelled: [Task<Void, Never>] = []
            _perform(action, page: page, on: &shared, cancelling: &cancelled)
            _afterEvent(&shared, cancelling: &cancelled)
            return (action, cancelled)
        }
        for task in cancelled { task.cancel() }
        return action
    }

    /// What follows any event under the lock: the tasks of slots that no longer load go,
    /// live changes are forgotten when nothing loads, and the status is published.
    func _afterEvent(_ shared: inout _Shared, cancelling cancelled: inout [Task<Void, Never>]) {
        // A slot that no longer loads has no task to keep (it is ending by itself).
        for slot in _Machine.Slot.allCases where !shared.machine.isLoading(slot) {
            shared.loadTasks[slot] = nil
            if let timer = shared.retryTimers.removeValue(forKey: slot) { cancelled.append(timer) }
        }
        if !shared.machine.isLoading {
            shared.liveChanges = []
            shared.liveChangeMarks = [:]
        }
        if !shared.machine.isLoading, let timer = shared.indicatorTimer {
            cancelled.append(timer)
            shared.indicatorTimer = nil
        }
        _publish(&shared)
    }

    /// Performs `action` under the lock; collects the tasks to cancel once it is released.
    private func _perform(_ action: _Machine.Action, page: Page<Item, Cursor>?, on shared: inout _Shared, cancelling cancelled: inout [Task<Void, Never>]) {
        switch action {
        case .none, .showIndicator, .fail:
            break
        case .startLoad(let request, let episode):
            let slot = request.mode.slot
            // A refresh or jump supersedes every direction, and the rows reported visible.
            if slot == .replace { shared.visibleID = nil }
            for superseded in slot == .replace ? _Machine.Slot.allCases : [slot] {
                cancelled += [shared.loadTasks.removeValue(forKey: superseded), shared.retryTimers.removeValue(forKey: superseded)].compactMap { $0 }
            }
            shared.loadStarted?(request.cursor, shared.trims)
            shared.liveChangeMarks[slot] = shared.liveChanges.count
            shared.runningLoads += 1
            shared.loadTasks[slot] = _startLoading(request)
            if let episode {
                cancelled += [shared.indicatorTimer].compactMap { $0 }
                shared.indicatorTimer = _startTimer(after: loadingIndicatorDelay) { $0.indicatorDelayElapsed(episode) }
            }
        case .scheduleRetry(let token, let delay):
            guard let slot = shared.machine.slot(of: token) else { break }
            shared.loadTasks[slot] = nil
            cancelled += [shared.retryTimers[slot]].compactMap { $0 }
            shared.retryTimers[slot] = _startTimer(after: delay) { $0.backoffElapsed(token) }
        case .applyPage(let mode):
            guard let page else { break }
            _apply(page, mode: mode, on: &shared)
        case .reset:
            cancelled += Array(shared.loadTasks.values) + Array(shared.retryTimers.values)
            shared.loadTasks = [:]
            shared.retryTimers = [:]
            shared.visibleID = nil
            dataSource.removeAll()
        case .trim(let edge, let fence):
            Self._supersedeLoad(at: edge, on: &shared, cancelling: &cancelled)
            let fences = Self._keptRows(dropping: edge, at: fence)
            dataSource.remove { !fences.admits($0) }
        case .actions(let actions):
            for action in actions {
                _perform(action, page: page, on: &shared, cancelling: &cancelled)
            }
        }
    }

    /// Applies a loaded page: `add` for a next or previous page, `replaceAll` for a
    /// refresh or jump, under the lock (after the machine took the page in, so its window
    /// covers the page).
    ///
    /// Live changes made since the page's load started win over the page's copies of
    /// those rows, since the page may have been read before them: the page is applied
    /// without them, then each changed row is added if the window now admits it and
    /// removed otherwise (a removed row stays removed).
    ///
    /// With ``maxLoadedRows``, a next or previous page, its live changes and the pages
    /// it pushes out of the window go in one `perform`: one batch, never over the bound
    /// (see ``_trim(_:measuredAt:)``).
    func _apply(_ page: Page<Item, Cursor>, mode: _Machine.Mode, on shared: inout _Shared) {
        var latest: [Item.ID: Item?] = [:]
        let mark = min(shared.liveChangeMarks[mode.slot] ?? shared.liveChanges.count, shared.liveChanges.count)
        for change in shared.liveChanges[mark...] { latest[change.id] = change.item }
        let items = latest.isEmpty ? page.items : page.items.filter { latest.index(forKey: $0.id) == nil }
        let changes = latest.map { (id: $0.key, item: $0.value) }
        if maxLoadedRows != nil, mode == .append || mode == .prepend {
            let (inside, outside) = Self._split(changes, through: shared.machine.window)
            let version = shared.machine.ledgerVersion
            dataSource.perform { [weak self] edits in
                edits.add(items)
                if !outside.isEmpty { edits.remove(ids: outside) }
                if !inside.isEmpty { edits.add(inside) }
                self?._trim(&edits, measuredAt: version)
            }
            return
        }
        switch mode {
        case .append, .prepend: dataSource.add(items)
        case .replace, .jump: dataSource.replaceAll(with: items)
        }
        guard !latest.isEmpty else { return }
        _ = _applyThroughWindow(changes, shared.machine.window)
    }

    /// Drops pages from `edits`, inside a page's `perform`, until the window holds at
    /// most ``maxLoadedRows`` rows or no page can go, as ``_trim()`` does between
    /// batches; the pages dropped leave in the page's batch.
    ///
    /// `version` is the machine's ledger version when the page was counted and submitted.
    /// While it is still the ledger version, every page in the ledger was submitted to
    /// the list before this `perform` or with it, so the rows measured are those of the
    /// ledger's pages. When it moved on (a later page, a refresh, a reset), nothing is
    /// dropped here: the later page's own `perform`, or the page's follow-up, measures.
    /// A drop is noted in `trimmedVersions`, so that the page's follow-up knows the
    /// window is full.
    func _trim(_ edits: inout ListEdits<Item>, measuredAt version: Int) {
        guard let maxLoadedRows else { return }
        var version = version
        let pageVersion = version
        while edits.count > maxLoadedRows {
            var cancelled: [Task<Void, Never>] = []
            let drop: (edge: _Machine.Edge, fence: _Machine.Fence)? = _shared.withLock { shared in
                guard shared.machine.ledgerVersion == version else { return nil }
                let ranges = shared.machine.ledger.map { page in page.bounds.flatMap { Self._range(of: $0, in: &edits) } }
                let visible = Self._visibleOffset(of: shared.visibleID, reported: shared.machine.lastAppearedOffset, in: &edits)
                let action = shared.machine.windowMeasured(
                    version: version, pageRanges: ranges, count: edits.count, visibleOffset: visible, maxRows: maxLoadedRows
                )
                guard case .trim(let edge, let fence) = action else { return nil }
                shared.trims[edge == .top ? 0 : 1] += 1
                shared.trimmedVersions.insert(pageVersion)
                Self._supersedeLoad(at: edge, on: &shared, cancelling: &cancelled)
                version = shared.machine.ledgerVersion
                shared.machine._checkInvariants()
                _afterEvent(&shared, cancelling: &cancelled)
                return (edge, fence)
            }
            for task in cancelled { task.cancel() }
            guard let drop else { return }
            let fences = Self._keptRows(dropping: drop.edge, at: drop.fence)
            edits.remove { !fences.admits($0) }
        }
    }

    /// A load running at `edge`, superseded by a drop there: its task and retry timer go.
    private static func _supersedeLoad(at edge: _Machine.Edge, on shared: inout _Shared, cancelling cancelled: inout [Task<Void, Never>]) {
        let slot: _Machine.Slot = edge == .top ? .prepend : .append
        cancelled += [shared.loadTasks.removeValue(forKey: slot), shared.retryTimers.removeValue(forKey: slot)].compactMap { $0 }
    }

    /// The rows that stay when pages are dropped at `edge` up to the new `fence`.
    private static func _keptRows(dropping edge: _Machine.Edge, at fence: _Machine.Fence) -> _ItemFences<Item> {
        _ItemFences(_Machine.Window(lower: edge == .top ? fence : .open, upper: edge == .bottom ? fence : .open))
    }

    /// Starts the task that loads `request` and reports back; the caller counts it in
    /// `runningLoads`, and the task uncounts itself when it ends.
    ///
    /// A task cancelled before it starts (superseded by a jump, a refresh, a reset or a
    /// drop at its end) does not call the loader.
    private func _startLoading(_ request: _Machine.Request) -> Task<Void, Never> {
        Task { [weak self, loader] in
            defer { self?._shared.withLock { $0.runningLoads -= 1 } }
            guard !Task.isCancelled else { return }
            let result: Result<Page<Item, Cursor>, PaginationError>
            do {
                result = .success(try await loader.loadPage(at: request.cursor))
            } catch {
                result = .failure(PaginationError(error))
            }
            guard let self else { return }
            switch result {
            case .success(let page):
                let bounds = Self._bounds(of: page.items)
                var followsUp = false
                var pageVersion = 0
                let action = self._handleShared(page: page) { shared in
                    let action = shared.machine.pageLoaded(
                        request.token,
                        nextCursor: page.nextCursor,
                        previousCursor: page.previousCursor,
                        bounds: bounds,
                        totalItems: page.totalItems,
                        totalPages: page.totalPages
                    )
                    // Counted under the same lock, so that nobody sees the page applied
                    // and its consequences not yet started.
                    if case .applyPage = action, self._needsFollowUp(request.mode, shared) {
                        followsUp = true
                        shared.windowWork += 1
                    }
                    pageVersion = shared.machine.ledgerVersion
                    return action
                }
                guard followsUp, case .applyPage = action else { return }
                await self._afterPage(pageVersion: pageVersion)
                self._shared.withLock { $0.windowWork -= 1 }
            case .failure(let error):
                let unit = self.retryPolicy.jitter > 0 ? Double.random(in: 0..<1) : 0
                self._handle { $0.pageFailed(request.token, error: error, randomUnit: unit) }
            }
        }
    }

    /// Whether a page applied with `mode` has consequences to work out: trimming the
    /// window, or loading on at an end the last visible row is still near.
    private func _needsFollowUp(_ mode: _Machine.Mode, _ shared: _Shared) -> Bool {
        guard mode == .append || mode == .prepend else { return false }
        return maxLoadedRows != nil || shared.machine.lastAppearedOffset != nil
    }

    /// What follows an applied page: with ``maxLoadedRows``, the window is trimmed (the
    /// page's own `perform` has dropped what it pushed out, unless another page came
    /// meanwhile); then, unless pages were dropped, a page that leaves the last visible
    /// row near an end (it added few rows, or only rows already loaded) loads the next
    /// one at that end, since no new row appears to ask for it. After a drop the window
    /// is full, and a page that loaded by itself could only push another out: the next
    /// ``itemDidAppear(at:)`` decides.
    ///
    /// - Parameter pageVersion: the ledger version that counted the page.
    private func _afterPage(pageVersion: Int) async {
        let (snapshot, trimmed, version) = await _trim()
        let trimmedWithPage = _shared.withLock { $0.trimmedVersions.remove(pageVersion) != nil }
        guard trimmed == nil, !trimmedWithPage else { return }
        let visible = _visibleOffset(in: snapshot)
        // Ignored if another page came meanwhile: its own follow-up decides, on its rows.
        _handle { $0.settled(count: snapshot.count, visibleOffset: visible, except: nil, ledgerVersion: version) }
    }

    /// Drops pages until the window holds at most ``maxLoadedRows`` rows or no page can
    /// go; returns the list as it then stands, the end where pages went, if any, and the
    /// machine's ledger version that list holds every page of.
    func _trim() async -> (ListSnapshot<Item>, _Machine.Edge?, ledgerVersion: Int) {
        var trimmed: _Machine.Edge?
        while true {
            let before = _shared.withLock { $0.machine.ledgerVersion }
            let snapshot = await dataSource.flush()
            let (version, ledger) = _shared.withLock { ($0.machine.ledgerVersion, $0.machine.ledger) }
            // A page applied (or pages dropped) during the flush may be missing from the
            // snapshot: measure again. Pages are submitted to the data source under the
            // lock that counts them, so a version read before the flush is in it.
            guard version == before else { continue }
            guard let maxLoadedRows, snapshot.count > maxLoadedRows else { return (snapshot, trimmed, version) }
            let ranges = ledger.map { page in page.bounds.flatMap { Self._range(of: $0, in: snapshot) } }
            let visible = _visibleOffset(in: snapshot)
            let action = _handleShared { shared in
                let action = shared.machine.windowMeasured(
                    version: version, pageRanges: ranges, count: snapshot.count, visibleOffset: visible, maxRows: maxLoadedRows
                )
                if case .trim(let edge, _) = action { shared.trims[edge == .top ? 0 : 1] += 1 }
                return action
            }
            guard case .trim(let edge, _) = action else { return (snapshot, trimmed, version) }
            trimmed = edge
        }
    }

    /// The offset of the last row reported visible in `snapshot`: where the row is now,
    /// or the offset reported when it is gone.
    func _visibleOffset(in snapshot: ListSnapshot<Item>) -> Int? {
        let (id, offset) = _shared.withLock { ($0.visibleID, $0.machine.lastAppearedOffset) }
        guard let offset else { return nil }
        if let id, let position = snapshot.index(of: id) { return position }
        return snapshot.isEmpty ? nil : min(offset, snapshot.count - 1)
    }

    /// ``_visibleOffset(in:)`` inside a `perform`, for the row `id` reported at `offset`.
    static func _visibleOffset(of id: Item.ID?, reported offset: Int?, in edits: inout ListEdits<Item>) -> Int? {
        guard let offset else { return nil }
        if let id, let position = edits.offset(of: id) { return position }
        let count = edits.count
        return count == 0 ? nil : min(offset, count - 1)
    }

    /// The first and last of `items` in their `<` order; `nil` when there are none.
    ///
    /// - Complexity: O(*k*) comparisons, *k* = items.
    static func _bounds(of items: [Item]) -> _PageBounds? {
        guard var first = items.first else { return nil }
        var last = first
        for item in items.dropFirst() {
            if item < first { first = item }
            if !(item < last) { last = item }
        }
        return _PageBounds(first: _RowBound(first), last: _RowBound(last))
    }

    /// Where the rows from `bounds.first` to `bounds.last` stand in `snapshot`: from the
    /// first row that does not sort before `first` to just past the last row that does
    /// not sort after `last`.
    ///
    /// - Complexity: O(log *n*) comparisons, *n* = rows.
    static func _range(of bounds: _PageBounds, in snapshot: ListSnapshot<Item>) -> Range<Int>? {
        _range(of: bounds, count: snapshot.count) { snapshot[$0] }
    }

    /// ``_range(of:in:)`` inside a `perform`.
    static func _range(of bounds: _PageBounds, in edits: inout ListEdits<Item>) -> Range<Int>? {
        _range(of: bounds, count: edits.count) { edits[offset: $0] }
    }

    /// ``_range(of:in:)`` over `count` rows, the row at an offset read by `row`.
    static func _range(of bounds: _PageBounds, count: Int, row: (Int) -> Item) -> Range<Int>? {
        guard let first = bounds.first.value(as: Item.self), let last = bounds.last.value(as: Item.self) else { return nil }
        let lower = _partition(count: count, row) { !($0 < first) }
        let upper = _partition(count: count, row) { last < $0 }
        return lower..<max(lower, upper)
    }

    /// The first position whose row satisfies `predicate`, which must be false, then true.
    private static func _partition(count: Int, _ row: (Int) -> Item, _ predicate: (Item) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(row(middle)) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Whether `window` lets `item` in. To test many rows, resolve the window once with
    /// ``_ItemFences``.
    static func _admits(_ item: Item, _ window: _Machine.Window) -> Bool {
        _ItemFences<Item>(window).admits(item)
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

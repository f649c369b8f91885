import ListEngine
import ListPagination
import Synchronization

/// Scrolls a windowed ``Paginator`` over a ``KeysetRowSource`` one page at a time, as a
/// user dragging from the first row to the last and back would, and checks the window
/// after every page.
///
/// Each step reports a row as visible — the row `prefetchDistance` from the bottom of
/// the loaded rows going down, from the top going up — and waits until the page it
/// asks for is applied and the window trimmed: until the paginator counts the page and
/// no longer loads in that direction, and the flushed list holds at most
/// `maxLoadedRows` rows again. The step's time runs from the report to that moment.
///
/// After each step the loaded rows must be one contiguous run of whole pages of the
/// source, at most `maxLoadedRows` rows, moved in the step's direction. Each pass must
/// ask the source for each page once, in order, and for no other. A mismatch is
/// recorded in ``problems``. The process stops when a check made every 30 seconds finds
/// that no step has finished since the one before.
///
/// ```swift
/// var scroll = WindowScroll(source: KeysetRowSource(count: 1_000_000))
/// await scroll.scrollDown()      // to the last row
/// await scroll.scrollUp()        // back to the first
/// print(scroll.down.meanTime(ofFirst: 10), scroll.problems)
/// ```
public struct WindowScroll {
    /// The rows.
    public let source: KeysetRowSource
    /// The windowed paginator, which loads into its data source.
    public let paginator: Paginator<KeysetLoader<Row, Int>, ContinuousClock>
    /// Rows per page.
    public let pageSize: Int
    /// The paginator's bound on loaded rows.
    public let maxLoadedRows: Int
    /// The paginator's prefetch distance, and how far from an end the reported row is.
    public let prefetchDistance: Int

    /// The downward pass so far.
    public private(set) var down = Pass()
    /// The upward pass so far.
    public private(set) var up = Pass()
    /// The first mismatches found (at most 20), in the order found.
    public private(set) var problems: [String] = []
    /// The loaded rows after the last step: the source's row numbers, `nil` when none.
    public private(set) var window: ClosedRange<Int>?

    private var statuses: AsyncStream<PaginationStatus>.Iterator
    private var batches: AsyncStream<ChangeBatch<Row>>.Iterator
    private var lastStatus: PaginationStatus
    private var deliveredVersion = 0
    private let watchdog = StepWatchdog()

    /// Scrolling in one direction: what it took and where it ended.
    public struct Pass: Sendable {
        /// How many pages were applied, a step's page or one loaded ahead of its step.
        public private(set) var pages = 0
        /// The time from the first step's start to the last step's end, checks included.
        public private(set) var duration: Duration = .zero
        /// The times of the first 20 steps, in order.
        public private(set) var firstTimes: [Duration] = []
        /// The times of the last 10 steps so far, oldest first.
        public var lastTimes: [Duration] { Array(recent[next...] + recent[..<next]) }
        /// The state of the paginator's direction after the last step.
        public private(set) var endState: PaginationState?
        /// The loaded rows at the end of the pass: the source's row numbers.
        public private(set) var endWindow: ClosedRange<Int>?

        private var recent: [Duration] = []
        private var next = 0
        static let kept = 10

        /// The mean time per page of the first `count` steps (at most 20).
        ///
        /// - Complexity: O(`count`).
        public func meanTime(ofFirst count: Int) -> Duration { Self.mean(firstTimes.prefix(count)) }

        /// The mean time per page of steps `steps` (0-based, below 20).
        ///
        /// - Complexity: O(`steps.count`).
        public func meanTime(ofSteps steps: Range<Int>) -> Duration {
            Self.mean(firstTimes[steps.clamped(to: firstTimes.indices)])
        }

        /// The mean time per page of the last `count` steps (at most 10).
        ///
        /// - Complexity: O(`count`).
        public func meanTime(ofLast count: Int) -> Duration { Self.mean(lastTimes.suffix(count)) }

        mutating func record(_ time: Duration, state: PaginationState) {
            endState = state
            if firstTimes.count < 2 * Self.kept { firstTimes.append(time) }
            if recent.count < Self.kept {
                recent.append(time)
            } else {
                recent[next] = time
                next = (next + 1) % Self.kept
            }
        }

        mutating func finish(after duration: Duration, pages: Int, window: ClosedRange<Int>?) {
            self.duration += duration
            self.pages += pages
            endWindow = window
        }

        private static func mean(_ times: some Collection<Duration>) -> Duration {
            times.isEmpty ? .zero : times.reduce(.zero, +) / times.count
        }
    }

    /// Creates the paginator, with an empty data source; loads nothing yet.
    ///
    /// - Parameters:
    ///   - source: the rows.
    ///   - pageSize: rows per page; 100 by default.
    ///   - maxLoadedRows: the window's bound; 1,000 by default.
    ///   - prefetchDistance: the paginator's prefetch distance; 20 by default.
    public init(source: KeysetRowSource, pageSize: Int = 100, maxLoadedRows: Int = 1_000, prefetchDistance: Int = 20) {
        precondition(maxLoadedRows >= 2 * (prefetchDistance + 1) + pageSize, "a window of \(maxLoadedRows) rows is too small to scroll")
        self.source = source
        self.pageSize = pageSize
        self.maxLoadedRows = maxLoadedRows
        self.prefetchDistance = prefetchDistance
        paginator = Paginator(
            dataSource: ListDataSource<Row>(),
            loader: source.loader(pageSize: pageSize),
            prefetchDistance: prefetchDistance,
            maxLoadedRows: maxLoadedRows,
            retryPolicy: .none
        )
        statuses = paginator.statuses().makeAsyncIterator()
        batches = paginator.dataSource.batches().makeAsyncIterator()
        lastStatus = paginator.status
    }

    /// Scrolls down `pages` pages, or until the last row is loaded.
    ///
    /// The first step loads the first page with `loadNextPage()`; every other reports
    /// the row `prefetchDistance` from the bottom as visible.
    /// - Complexity: O(`pages` × *w* log *w*) work in the paginator and its data source,
    ///   *w* = `maxLoadedRows`.
    public mutating func scrollDown(pages: Int = .max) async {
        await scroll(.down, pages: pages)
    }

    /// Scrolls up `pages` pages, or until the first row is loaded, reporting the row
    /// `prefetchDistance` from the top as visible.
    ///
    /// - Complexity: O(`pages` × *w* log *w*) work in the paginator and its data source,
    ///   *w* = `maxLoadedRows`.
    public mutating func scrollUp(pages: Int = .max) async {
        await scroll(.up, pages: pages)
    }

    private enum Direction { case down, up }

    private mutating func scroll(_ direction: Direction, pages: Int) async {
        let watching = watchdog.watch(paginator, seconds: 30)
        defer { watching.cancel() }
        let clock = ContinuousClock()
        let started = clock.now
        let start = (window: window, pages: lastStatus.loadedPages)
        var steps = 0, requests = 0
        // A pass ends at the end of the source; past as many steps as it has pages, the
        // paginator is not stopping there.
        let stepLimit = source.count / pageSize + 2
        while steps < pages, state(direction, in: lastStatus) != .exhausted || window == nil {
            guard steps < stepLimit else {
                report("\(direction) pass: still not at the end after \(steps) pages")
                break
            }
            await step(direction, clock: clock)
            steps += 1
            checkRequests(direction, from: start.window, count: &requests)
            if !problems.isEmpty { break }
        }
        let applied = lastStatus.loadedPages - start.pages
        switch direction {
        case .down: down.finish(after: started.duration(to: clock.now), pages: applied, window: window)
        case .up: up.finish(after: started.duration(to: clock.now), pages: applied, window: window)
        }
        if requests != applied { report("\(direction) pass: \(requests) pages requested, \(applied) applied") }
        if let window { checkRows(window, in: await paginator.dataSource.flush()) }
    }

    /// Loads one page in `direction` and waits until it is applied and the window trimmed.
    private mutating func step(_ direction: Direction, clock: ContinuousClock) async {
        let before = window
        let count = before.map(\.count) ?? 0
        let started = clock.now
        switch (direction, before) {
        case (.down, nil): paginator.loadNextPage()
        case (.down, _?): paginator.itemDidAppear(at: count - 1 - prefetchDistance)
        case (.up, _): paginator.itemDidAppear(at: prefetchDistance)
        }
        // Applied: the paginator counts the page and no longer loads in that direction.
        let target = lastStatus.loadedPages + 1
        while lastStatus.loadedPages < target || state(direction, in: lastStatus) == .loading {
            guard let status = await statuses.next() else { return report("the paginator's statuses ended") }
            lastStatus = status
        }
        // Trimmed: the flushed list is back within the bound. The batches up to the
        // flushed snapshot are read as well, so that none is left buffered in the stream.
        var snapshot = await paginator.dataSource.flush()
        while true {
            while deliveredVersion < snapshot.version {
                guard let batch = await batches.next() else { return report("the data source's batches ended") }
                deliveredVersion = batch.new.version
            }
            guard snapshot.count > maxLoadedRows else { break }
            // Over the bound: wait for the batch that trims, then flush, so that the
            // data source's own reads (`itemDidAppear(at:)` counts with them) see it too.
            while true {
                guard let batch = await batches.next() else { return report("the data source's batches ended") }
                deliveredVersion = batch.new.version
                if batch.new.count <= maxLoadedRows { break }
            }
            snapshot = await paginator.dataSource.flush()
        }
        let time = started.duration(to: clock.now)
        watchdog.advance()

        let endState = state(direction, in: lastStatus)
        switch direction {
        case .down: down.record(time, state: endState)
        case .up: up.record(time, state: endState)
        }
        checkWindow(direction, from: before, to: snapshot, state: endState)

        // A page that leaves the list within the bound is followed, after it is applied,
        // by the paginator deciding on the list as that page left it whether the visible
        // row still asks for another page. Were the next step's row reported first, that
        // decision would count the list without the next step's page and load the page
        // after it early; it is given time to run first, outside the timed step.
        if count + pageSize <= maxLoadedRows {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Checks the requests made since the last call: the pass asks for each page once,
    /// in order, from where it `started`, whichever step's row asked for it.
    private mutating func checkRequests(_ direction: Direction, from started: ClosedRange<Int>?, count: inout Int) {
        for request in source.takeRequests() {
            let expected: KeysetCursor<Int>?
            switch (direction, started) {
            case (.down, nil): expected = count == 0 ? nil : .after(count * pageSize - 1)
            case (.down, let started?): expected = .after(started.upperBound + count * pageSize)
            case (.up, let started?): expected = .before(started.lowerBound - count * pageSize)
            case (.up, nil): return report("scrolled up with no rows loaded")
            }
            if request != expected {
                report("\(direction) pass: request \(count + 1) was \(describe(request)), expected \(describe(expected))")
            }
            count += 1
        }
    }

    /// Checks the list after a step: one contiguous run of whole pages of the source, at
    /// most `maxLoadedRows` rows, moved in `direction` from the rows `before` the step.
    private mutating func checkWindow(_ direction: Direction, from before: ClosedRange<Int>?, to snapshot: ListSnapshot<Row>, state: PaginationState) {
        let step = "\(direction) page \(lastStatus.loadedPages)"
        if case .failed(let error) = state { report("\(step): failed: \(error)") }
        guard let first = snapshot.first?.value, let last = snapshot.last?.value else {
            window = nil
            return report("\(step): no rows loaded")
        }
        window = first ... last
        // Distinct ids (the list keeps each once) spanning exactly `count` row numbers
        // are that run of rows; the list keeps them in order.
        let contiguous = last - first + 1 == snapshot.count
        let wholePages = first.isMultiple(of: pageSize) && ((last + 1).isMultiple(of: pageSize) || last == source.count - 1)
        let moved = switch (direction, before) {
        case (.down, nil): first == 0
        case (.down, let before?): last > before.upperBound && first >= before.lowerBound
        case (.up, let before?): first < before.lowerBound && last <= before.upperBound
        case (.up, nil): false
        }
        if snapshot.count > maxLoadedRows || !contiguous || !wholePages || !moved {
            report("\(step): rows \(first) ... \(last) (\(snapshot.count) rows) after rows \(before.map(String.init(describing:)) ?? "none")")
        }
        if lastStatus.loadedPages.isMultiple(of: 1_000) { checkRows(first ... last, in: snapshot) }
    }

    /// Checks every row of `snapshot` against the source's rows `window`.
    private mutating func checkRows(_ window: ClosedRange<Int>, in snapshot: ListSnapshot<Row>) {
        guard snapshot.count == window.count else { return report("\(snapshot.count) rows loaded for rows \(window)") }
        for (row, number) in zip(snapshot, window) where row != KeysetRowSource.row(number) {
            return report("row \(number) is \(row)")
        }
    }

    private func state(_ direction: Direction, in status: PaginationStatus) -> PaginationState {
        direction == .down ? status.append : status.prepend
    }

    private func describe(_ cursor: KeysetCursor<Int>?) -> String {
        cursor.map(String.init(describing:)) ?? "the first page"
    }

    private mutating func report(_ problem: String) {
        if problems.count < 20 { problems.append(problem) }
    }
}

/// Counts finished steps, and stops the process when a step hangs: a benchmark that
/// waits forever for a page proves nothing.
private final class StepWatchdog: Sendable {
    private let steps = Atomic<Int>(0)

    func advance() { steps.add(1, ordering: .relaxed) }

    /// Starts a task that checks every `seconds` that a step finished since the last check.
    func watch(_ paginator: Paginator<KeysetLoader<Row, Int>, ContinuousClock>, seconds: Int) -> Task<Void, Never> {
        Task { [self] in
            var seen = steps.load(ordering: .relaxed)
            while (try? await Task.sleep(for: .seconds(seconds))) != nil {
                let now = steps.load(ordering: .relaxed)
                if now == seen {
                    fatalError("WindowScroll: no page applied for \(seconds) s; status \(paginator.status), \(paginator.dataSource.count) rows loaded")
                }
                seen = now
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ListEngine
import Synchronization

/// Many small lists given the same change, as a server's windows on one feed are: the
/// engine's cost per list and per change, apart from the work of the change itself.
///
/// `lists` lists of `rows` rows each hold the same rows, each with a renderer of its own
/// attached without a queue (so the engine picks where it runs). Each event changes one
/// row's sort index (which moves it) and gives the same change to every list with
/// `add`; events come every `interval`, or back to back when it is `nil`. At the end
/// every list is flushed, and checked against an array that got the same changes.
public struct FanOut {
    /// What a run measured.
    public struct Result: Sendable {
        public let lists: Int
        public let events: Int
        /// CPU time of the whole process (user and system) from the first event to the
        /// last flush.
        public let cpu: Duration
        /// Wall time from the first event to the last flush.
        public let wall: Duration
        /// The most threads the process had, read after every 10th event and at the end.
        public let peakThreads: Int
        /// Batches the renderers received during the events.
        public let batches: Int

        /// CPU time per list per event.
        public var cpuPerWindowEvent: Duration { cpu / (lists * events) }
    }

    public let lists: Int
    public let rows: Int

    public init(lists: Int = 1_000, rows: Int = 50) {
        self.lists = lists
        self.rows = rows
    }

    /// Makes the lists, plays `events` events and flushes; returns the figures, or
    /// stops the process when a list does not end as the array does.
    public func run(events: Int, interval: Duration?) async -> Result {
        var model = Rows.make(count: rows, seed: 41)
        let sources = (0 ..< lists).map { _ in ListDataSource<Row>(model) }
        let renderers = sources.map { source in
            let renderer = CountingRenderer()
            source.attach(renderer)
            return renderer
        }
        for source in sources { await source.flush() }
        let before = renderers.reduce(0) { $0 + $1.batches.load(ordering: .relaxed) }

        var rng = SplitMix64(seed: 4_141)
        var peakThreads = ProcessFigures.threads
        let clock = ContinuousClock()
        let cpuStart = ProcessFigures.cpu, start = clock.now
        var deadline = start
        for event in 0 ..< events {
            let changed = Self.reKeyOneRow(of: &model, rng: &rng)
            for source in sources { source.add(CollectionOfOne(changed)) }
            if event % 10 == 9 { peakThreads = max(peakThreads, ProcessFigures.threads) }
            if let interval {
                deadline = deadline.advanced(by: interval)
                try? await clock.sleep(until: deadline)
            }
        }
        var last: ListSnapshot<Row>?
        for source in sources { last = await source.flush() }
        let wall = clock.now - start, cpu = ProcessFigures.cpu - cpuStart
        peakThreads = max(peakThreads, ProcessFigures.threads)
        let batches = renderers.reduce(0) { $0 + $1.batches.load(ordering: .relaxed) } - before

        Self.check(sources, hold: model)
        precondition(last?.version ?? 0 > 1 || events == 0, "fan-out: the lists did not change")
        return Result(lists: lists, events: events, cpu: cpu, wall: wall, peakThreads: peakThreads, batches: batches)
    }

    /// The paced fan-out without Swift concurrency, for `valgrind --tool=callgrind`
    /// (which cannot run the concurrency runtime): each event's change is given to every
    /// list, and the next event waits until every list's renderer has rendered it, so
    /// that every list makes one batch per event (`events` × `lists` in all). Checks the
    /// lists against the array that got the same changes.
    public func runWaitingForEachEvent(events: Int) {
        var model = Rows.make(count: rows, seed: 41)
        let rendered = DispatchSemaphore(value: 0)
        let sources = (0 ..< lists).map { _ in ListDataSource<Row>(model) }
        for source in sources { source.attach(SignallingRenderer(rendered)) }
        for _ in sources { rendered.wait() }  // the attach batches
        var rng = SplitMix64(seed: 4_141)
        for _ in 0 ..< events {
            let changed = Self.reKeyOneRow(of: &model, rng: &rng)
            for source in sources { source.add(CollectionOfOne(changed)) }
            for _ in sources { rendered.wait() }
        }
        Self.check(sources, hold: model)
    }

    /// One list's one-row change and `flush()`, `count` times: the time each took, in
    /// nanoseconds, sorted.
    public func editFlushTimes(count: Int) async -> [Int] {
        var model = Rows.make(count: rows, seed: 41)
        let source = ListDataSource<Row>(model)
        source.attach(CountingRenderer())
        await source.flush()
        var rng = SplitMix64(seed: 4_242)
        let clock = ContinuousClock()
        var times: [Int] = []
        times.reserveCapacity(count)
        for _ in 0 ..< count {
            let changed = Self.reKeyOneRow(of: &model, rng: &rng)
            let start = clock.now
            source.add(CollectionOfOne(changed))
            await source.flush()
            times.append(Int((clock.now - start) / .nanoseconds(1)))
        }
        return times.sorted()
    }

    /// Gives a random row of `model` a new sort index (which moves it) and returns it.
    static func reKeyOneRow(of model: inout [Row], rng: inout SplitMix64) -> Row {
        let offset = rng.int(in: 0 ..< model.count)
        let old = model[offset]
        let changed = Row(uid: old.uid, value: old.value, index: rng.unitDouble())
        model[offset] = changed
        return changed
    }

    /// Stops the process unless every list holds `model`'s rows in sort-index order.
    static func check(_ sources: [ListDataSource<Row>], hold model: [Row]) {
        let expected = model.sorted { $0.index < $1.index }.map(\.uid)
        for source in sources {
            let got = source.snapshot.map(\.uid)
            precondition(got == expected, "fan-out: a list holds \(got.prefix(5)), not \(expected.prefix(5))")
        }
    }
}

/// Signals a semaphore for every batch it renders.
final class SignallingRenderer: ListRenderer {
    let rendered: DispatchSemaphore

    init(_ rendered: DispatchSemaphore) {
        self.rendered = rendered
    }

    func render(_ batch: ChangeBatch<Row>) {
        rendered.signal()
    }
}

/// Counts the batches it renders.
final class CountingRenderer: ListRenderer {
    let batches = Atomic<Int>(0)

    func render(_ batch: ChangeBatch<Row>) {
        batches.add(1, ordering: .relaxed)
    }
}

/// The process's CPU time, from the kernel.
public enum ProcessFigures {
    /// User and system CPU time of every thread so far.
    public static var cpu: Duration {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration { .seconds(time.tv_sec) + .microseconds(time.tv_usec) }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    /// The process's threads now (0 where they cannot be read).
    public static var threads: Int { ProcessMemory.threads ?? 0 }
}

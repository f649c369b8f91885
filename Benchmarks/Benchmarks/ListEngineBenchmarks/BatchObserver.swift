import BenchmarkSupport
import Dispatch
import ListEngine
import Synchronization

/// The sizes of a run of batches.
struct BatchTotals: Sendable, Equatable, CustomStringConvertible {
    var batches = 0
    var deletions = 0
    var insertions = 0
    var moves = 0
    var reloads = 0

    mutating func add(_ batch: ChangeBatch<Row>) {
        batches += 1
        deletions += batch.deletions.count
        insertions += batch.insertions.count
        moves += batch.moves.count
        reloads += batch.reloads.count
    }

    var description: String {
        "\(batches) batch(es): -\(deletions) +\(insertions) ~\(moves) moves, \(reloads) reloads"
    }
}

/// A renderer that counts what it receives and wakes a waiting benchmark thread when
/// a delivered snapshot satisfies its condition.
///
/// This is how scenarios time "until the batch is computed": the clock stops when the
/// renderer has been handed the batch on its queue, which is the earliest moment a
/// real renderer could use it. Rendering itself costs O(1) here.
///
/// A short wait can first watch for the delivery on the waiting thread (see
/// ``wait(until:spinning:)``), so that the time a blocked thread takes to be woken
/// (tens of microseconds on two cores) is not counted as the list's.
final class BatchObserver: ListRenderer {
    typealias Item = Row

    private struct Waiter {
        let condition: @Sendable (ListSnapshot<Row>) -> Bool
        let semaphore: DispatchSemaphore
    }

    private struct State {
        var totals = BatchTotals()
        var latest: ListSnapshot<Row>?
        var waiter: Waiter?
    }

    private let state = Mutex(State())
    /// The number of batches rendered so far, for a waiting thread to watch.
    private let deliveries = Atomic<Int>(0)

    func render(_ batch: ChangeBatch<Row>) {
        let wake = state.withLock { state -> DispatchSemaphore? in
            state.totals.add(batch)
            state.latest = batch.new
            guard let waiter = state.waiter, waiter.condition(batch.new) else { return nil }
            state.waiter = nil
            return waiter.semaphore
        }
        deliveries.add(1, ordering: .releasing)
        wake?.signal()
    }

    /// Blocks the calling thread until a delivered snapshot (the latest one, or a later
    /// one) satisfies `condition`, and returns it.
    ///
    /// - Parameter spinning: how long to watch for the delivery on this thread before
    ///   sleeping until it comes. Watching occupies a core, which on two cores is one
    ///   fewer for the list; it suits waits of tens of microseconds, where being woken
    ///   would take as long as the wait. Zero, the default, sleeps at once.
    @discardableResult
    func wait(until condition: @escaping @Sendable (ListSnapshot<Row>) -> Bool, spinning: Duration = .zero) -> ListSnapshot<Row> {
        var seen = -1, found: ListSnapshot<Row>? = nil
        let watched = watch(for: spinning) {
            let delivered = deliveries.load(ordering: .acquiring)
            guard delivered != seen else { return false }
            seen = delivered
            found = state.withLock { $0.latest }.flatMap { condition($0) ? $0 : nil }
            return found != nil
        }
        if watched, let found { return found }
        let semaphore = DispatchSemaphore(value: 0)
        let satisfied = state.withLock { state -> ListSnapshot<Row>? in
            if let latest = state.latest, condition(latest) { return latest }
            state.waiter = Waiter(condition: condition, semaphore: semaphore)
            return nil
        }
        if let satisfied { return satisfied }
        semaphore.wait()
        return state.withLock { state in
            guard let latest = state.latest else { fatalError("woken without a delivered snapshot") }
            return latest
        }
    }

    /// Blocks until the batch with `version` (or a later one) has been delivered.
    @discardableResult
    func wait(forVersion version: Int, spinning: Duration = .zero) -> ListSnapshot<Row> {
        wait(until: { $0.version >= version }, spinning: spinning)
    }

    /// The latest delivered snapshot, or `nil` before the attach batch.
    var latest: ListSnapshot<Row>? { state.withLock { $0.latest } }

    /// The version of the latest delivered snapshot (0 before the attach batch).
    var latestVersion: Int { state.withLock { $0.latest?.version ?? 0 } }

    /// Returns the totals since the last call and starts counting from zero.
    func takeTotals() -> BatchTotals {
        state.withLock { state in
            defer { state.totals = BatchTotals() }
            return state.totals
        }
    }
}

extension ListDataSource where Item == Row {
    /// Attaches a fresh observer and waits for its attach batch.
    func attachObserver() -> BatchObserver {
        let observer = BatchObserver()
        attach(observer)
        observer.wait { _ in true }
        _ = observer.takeTotals()
        return observer
    }

    /// Blocks until every call made so far has been delivered and the renderers' queues
    /// have run past it, which includes freeing the tree nodes those batches replaced.
    ///
    /// The scenarios that change many rows call this after their untimed step, so that
    /// the next measured step never starts beside work left over from it. Freeing what
    /// a batch replaced happens on the renderer's queue after the batch is handed over,
    /// and on two cores, freeing a million rows (about 10 ms) could otherwise run beside
    /// the next measured step, if the checks between the two took less time than that.
    func settle() {
        let settled = DispatchSemaphore(value: 0)
        Task {
            await flush()
            settled.signal()
        }
        settled.wait()
    }
}

extension ListSnapshot where Item == Row {
    /// Checks the order of the snapshot at `samples` random places and that
    /// `index(of:)` finds the sampled rows where they are.
    func spotCheckOrder(samples: Int, seed: UInt64) {
        guard count > 1 else { return }
        var rng = SplitMix64(seed: seed)
        for _ in 0 ..< samples {
            let offset = rng.int(in: 0 ..< count - 1)
            check(self[offset] < self[offset + 1], "rows \(offset) and \(offset + 1) are out of order")
            check(index(of: self[offset].id) == offset, "index(of:) disagrees with the row at \(offset)")
        }
    }
}

/// Checks `isDone` on this thread, without sleeping, until it returns `true` or
/// `duration` has passed; returns whether it did. A zero duration checks nothing.
func watch(for duration: Duration, until isDone: () -> Bool) -> Bool {
    let (seconds, attoseconds) = duration.components
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if isDone() { return true }
    }
    return false
}

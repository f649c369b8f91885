import Dispatch
import ListEngine
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks long CPU-bound tests, such as property tests that loop over thousands of seeds
/// without suspending. Each runs on one of a few threads set aside for such tests (one
/// per core), not on the cooperative pool.
///
/// The cooperative pool has one thread per core. On a 2-core machine, two long tests on
/// it hold both threads for minutes. Meanwhile, tests that wait for other tasks (a
/// paginator's loads, a `ManualClock`'s sleepers, a web hub's clients) cannot get a
/// thread, and they run out of their time limits. On threads of their own, the long
/// tests share the cores with everything else through the operating system's scheduler,
/// and the pool stays free. There are no more of these threads than cores, so the long
/// tests do not crowd out the threads of the data sources that other tests wait for.
///
/// The test still runs as a task: task-locals, `#expect` and cancellation work as usual.
/// Child tasks it creates also run on its thread, so do not use this for tests that
/// need several tasks to run in parallel, or that block while waiting for a child task.
///
/// ```swift
/// @Suite(.cpuBound) struct OrderPropertyTests { … }
/// ```
public struct CPUBound: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no test code; each of its tests gets a thread.
        guard testCase != nil else { return try await function() }
        let executor = CPUBoundThreads.shared.checkOut()
        defer { CPUBoundThreads.shared.checkIn(executor) }
        try await withTaskExecutorPreference(executor) {
            try await function()
        }
    }
}

extension CPUBound {
    /// Whether the caller runs on one of the threads set aside for `.cpuBound` tests.
    public static var isOnASetAsideThread: Bool {
        DispatchQueue.getSpecific(key: SerialQueueExecutor.setAsideKey) == true
    }
}

extension Trait where Self == CPUBound {
    /// Runs each test on a thread set aside for long CPU-bound tests; see ``CPUBound``.
    public static var cpuBound: Self { CPUBound() }
}

/// The threads set aside for ``CPUBound`` tests: one serial dispatch queue per core.
/// Serial queues are served by threads outside the cooperative pool's fixed width.
final class CPUBoundThreads: Sendable {
    static let shared = CPUBoundThreads(count: processorCount())

    private let executors: [SerialQueueExecutor]
    /// How many tests are running on each executor.
    /// A `pthread` lock (which ThreadSanitizer follows), not `Mutex`.
    private let load: LockedState<[Int]>

    init(count: Int) {
        executors = (0 ..< count).map { SerialQueueExecutor(label: "ListTestSupport.cpu-bound.\($0)") }
        load = LockedState([Int](repeating: 0, count: count))
    }

    /// The executor running the fewest tests, now counted as running one more.
    func checkOut() -> SerialQueueExecutor {
        let slot = load.withLock { load in
            let slot = load.indices.min { load[$0] < load[$1] } ?? 0
            load[slot] += 1
            return slot
        }
        return executors[slot]
    }

    func checkIn(_ executor: SerialQueueExecutor) {
        guard let slot = executors.firstIndex(where: { $0 === executor }) else { return }
        load.withLock { $0[slot] -= 1 }
    }

    private static func processorCount() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

/// A task executor that runs every job on one serial dispatch queue.
final class SerialQueueExecutor: TaskExecutor {
    /// Set to `true` on the queues of the set-aside threads.
    static let setAsideKey = DispatchSpecificKey<Bool>()

    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.setAsideKey, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
